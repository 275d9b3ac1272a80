import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { jpeg } from '../../test/media-fixtures.js';
import { multipart, type FilePart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { listIntegrations } from '../integrations/integrations.repository.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import { PUBLISH_QUEUE } from './publish-queue.js';
import { runWatchdog } from './watchdog.js';

/**
 * Threads (multi-part posts) and first comments (docs/product.md#threads-and-first-comments)
 * through the API, the engine and the network sandboxes: parts in order, each once, each
 * replying to the one before; a failure mid-thread reported per part and retried from it; a crash
 * between parts never sending one twice; first comments once on X, Instagram, Facebook, LinkedIn.
 */

let t: TestApp;
let owner: Actor;
let orgId: string;
const accounts: Record<string, string> = {};

interface FollowUpDto {
  id: string;
  kind: 'part' | 'first_comment';
  position: number;
  text: string;
  status: string;
  externalId: string | null;
  error: string | null;
}
interface PostDto {
  id: string;
  status: string;
  platformPosts: Array<{
    id: string;
    platformId: string;
    platformName: string;
    status: string;
    externalId: string | null;
    followUps?: FollowUpDto[];
  }>;
}
interface XSandboxPost {
  id: string;
  text: string;
  inReplyTo: string | null;
  deleted: boolean;
}

async function create(
  fields: Record<string, string>,
  files: FilePart[] = [],
  actor: Actor = owner,
  org = orgId,
) {
  const body = await multipart(fields, files);
  return send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${org}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
}

async function draft(
  names: string[],
  content: string,
  followUps: Record<string, { parts?: string[]; firstComment?: string }>,
  files: FilePart[] = [],
): Promise<PostDto> {
  const res = await create(
    {
      integrationIds: JSON.stringify(names.map((n) => accounts[n])),
      content,
      action: 'draft',
      followUps: JSON.stringify(
        Object.fromEntries(Object.entries(followUps).map(([n, f]) => [accounts[n], f])),
      ),
    },
    files,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.post as PostDto;
}

const getPost = async (id: string): Promise<PostDto> =>
  (await owner.call('GET', `/api/organizations/${orgId}/posts/${id}`)).body.data.post;

const publishNow = (postId: string, platforms: string[]) =>
  owner.call('PATCH', `/api/organizations/${orgId}/post/${postId}/publish`, { platforms });

async function xPosts(): Promise<XSandboxPost[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/sandbox/x/_emu/posts?replies=1',
    headers: { cookie: owner.jar.header() },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { posts: XSandboxPost[] }).posts.filter((p) => !p.deleted);
}

const onX = async (text: string) => (await xPosts()).filter((p) => p.text === text);

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function storedAccount(name: string) {
  const rows = await listIntegrations(t.database.db, orgId);
  const row = rows.find((r) => r.integration.id === accounts[name])!;
  return toStoredAccount(t.cipher, row.integration);
}

beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE] });
  ({ owner, orgId } = await createOrg(t.app, 'threads@engine.test', 'Thread Co'));
  for (const slug of ['x', 'threads', 'linkedin']) {
    expect(await connectThroughSandbox(t.app, owner, slug, orgId)).toContain('connected=');
  }
  expect(
    await connectThroughSandbox(t.app, owner, 'facebook', orgId, {
      account: 'Ada',
      fields: { pages: 'Ada Coffee' },
    }),
  ).toContain('connected=');
  expect(
    await connectThroughSandbox(t.app, owner, 'instagram', orgId, {
      account: 'Ada',
      fields: { pages: 'Ada Coffee', instagram: 'ada.coffee' },
    }),
  ).toContain('connected=');
  const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
    .platforms as Array<{ id: string; platform: { name: string } }>;
  for (const row of list) accounts[row.platform.name] = row.id;
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('an X thread', () => {
  it('publishes three parts in order, each replying to the one before, once each, then the first comment', async () => {
    const post = await draft(['X'], 'Harbour walk, part one', {
      X: {
        parts: ['Harbour walk, part two', 'Harbour walk, part three'],
        firstComment: 'Map in the comments',
      },
    });
    expect(post.platformPosts[0]!.followUps!.map((f) => [f.kind, f.position, f.status])).toEqual([
      ['part', 2, 'QUEUED'],
      ['part', 3, 'QUEUED'],
      ['first_comment', 4, 'QUEUED'],
    ]);

    const res = await publishNow(post.id, ['X']);
    expect(res.body.results.X).toEqual({ status: 'success', error: null });
    const after = await getPost(post.id);
    expect(after.status).toBe('published');
    const target = after.platformPosts[0]!;
    expect(target.followUps!.map((f) => f.status)).toEqual(['PUBLISHED', 'PUBLISHED', 'PUBLISHED']);

    const [one] = await onX('Harbour walk, part one');
    const [two] = await onX('Harbour walk, part two');
    const [three] = await onX('Harbour walk, part three');
    const [comment] = await onX('Map in the comments');
    expect(one!.inReplyTo).toBeNull();
    expect(two!.inReplyTo).toBe(one!.id);
    expect(three!.inReplyTo).toBe(two!.id);
    // The first comment answers the post itself.
    expect(comment!.inReplyTo).toBe(one!.id);
    expect(target.externalId).toBe(one!.id);
    expect(target.followUps!.map((f) => f.externalId)).toEqual([two!.id, three!.id, comment!.id]);

    // Publishing again sends nothing more.
    await publishNow(post.id, ['X']);
    await t.publisher.run(target.id);
    for (const text of ['part one', 'part two', 'part three']) {
      expect(await onX(`Harbour walk, ${text}`)).toHaveLength(1);
    }
    expect(await onX('Map in the comments')).toHaveLength(1);
  });

  it('refuses a part over the limit, naming the part, and stores nothing', async () => {
    const before = (await owner.call('GET', `/api/organizations/${orgId}/posts`)).body.data.posts
      .length;
    const res = await create({
      integrationIds: JSON.stringify([accounts.X]),
      content: 'Short first part',
      action: 'draft',
      followUps: JSON.stringify({ [accounts.X!]: { parts: ['Fine', 'x'.repeat(300)] } }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('X: part 3 of 3 is too long (300 of 280 characters).');
    const empty = await create({
      integrationIds: JSON.stringify([accounts.X]),
      content: 'Short first part',
      action: 'draft',
      followUps: JSON.stringify({ [accounts.X!]: { parts: ['  '] } }),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('part 2 of 2 is empty');
    const after = (await owner.call('GET', `/api/organizations/${orgId}/posts`)).body.data.posts
      .length;
    expect(after).toBe(before);
  });

  it('reports a failed part by its number and a retry continues from it without repeating the others', async () => {
    // X refuses a post with the same text as a recent one: part 3 collides with this post.
    const blocker = await draft(['X'], 'Tide tables for the week', {});
    await publishNow(blocker.id, ['X']);
    const post = await draft(['X'], 'Week ahead, 1/4', {
      X: { parts: ['Week ahead, 2/4', 'Tide tables for the week', 'Week ahead, 4/4'] },
    });
    await publishNow(post.id, ['X']);
    let after = await getPost(post.id);
    // The post is out: a failed part does not un-publish it.
    expect(after.status).toBe('published');
    const parts = after.platformPosts[0]!.followUps!;
    expect(parts.map((f) => f.status)).toEqual(['PUBLISHED', 'FAILED', 'QUEUED']);
    expect(parts[1]!.error).toMatch(/^Part 3 of 4 failed: /);
    expect(await onX('Week ahead, 2/4')).toHaveLength(1);
    expect(await onX('Tide tables for the week')).toHaveLength(1);
    expect(await onX('Week ahead, 4/4')).toHaveLength(0);

    // The user removes the older post on X, then retries.
    const blockerId = (await getPost(blocker.id)).platformPosts[0]!.externalId!;
    await t.networks.get('x')!.adapter.publishing!.deleteComment!(
      await storedAccount('X'),
      blockerId,
    );
    const retried = await owner.call(
      'POST',
      `/api/organizations/${orgId}/posts/${post.id}/targets/${after.platformPosts[0]!.id}/follow-ups/retry`,
    );
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    after = await getPost(post.id);
    expect(after.platformPosts[0]!.followUps!.map((f) => f.status)).toEqual([
      'PUBLISHED',
      'PUBLISHED',
      'PUBLISHED',
    ]);
    const [one] = await onX('Week ahead, 1/4');
    const [two] = await onX('Week ahead, 2/4');
    const three = await onX('Tide tables for the week');
    const [four] = await onX('Week ahead, 4/4');
    expect(await onX('Week ahead, 1/4')).toHaveLength(1);
    expect(await onX('Week ahead, 2/4')).toHaveLength(1);
    expect(three).toHaveLength(1);
    expect(two!.inReplyTo).toBe(one!.id);
    expect(three[0]!.inReplyTo).toBe(two!.id);
    expect(four!.inReplyTo).toBe(three[0]!.id);
  });

  it('after a crash between part 2 and part 3, the watchdog continues at part 3 without duplicating', async () => {
    const blocker = await draft(['X'], 'Crash test, 3/3', {});
    await publishNow(blocker.id, ['X']);
    const post = await draft(['X'], 'Crash test, 1/3', {
      X: { parts: ['Crash test, 2/3', 'Crash test, 3/3'] },
    });
    await publishNow(post.id, ['X']);
    const target = (await getPost(post.id)).platformPosts[0]!;
    const third = target.followUps![1]!;
    expect(third.status).toBe('FAILED');
    const blockerId = (await getPost(blocker.id)).platformPosts[0]!.externalId!;
    await t.networks.get('x')!.adapter.publishing!.deleteComment!(
      await storedAccount('X'),
      blockerId,
    );
    // The state a worker that stopped right after storing part 2 leaves: part 3 waiting, untouched.
    await t.database.db.execute(
      sql`update post_target_follow_ups set status = 'QUEUED', error = null, updated_at = now() - interval '1 hour' where id = ${third.id}`,
    );
    await runWatchdog({ ...t.runtime.watchdog, stuckAfterMs: 60_000 });
    const done = await until(
      () => getPost(post.id),
      (p) => p.platformPosts[0]!.followUps![1]!.status === 'PUBLISHED',
    );
    expect(done.platformPosts[0]!.followUps![1]!.status).toBe('PUBLISHED');
    expect(await onX('Crash test, 1/3')).toHaveLength(1);
    expect(await onX('Crash test, 2/3')).toHaveLength(1);
    const [two] = await onX('Crash test, 2/3');
    const [three] = await onX('Crash test, 3/3');
    expect(three!.inReplyTo).toBe(two!.id);
    expect(await onX('Crash test, 3/3')).toHaveLength(1);
  });

  it('a part left PUBLISHING by a stopped worker is looked up, never sent again', async () => {
    const post = await draft(['X'], 'Lookup, 1/3', {
      X: { parts: ['Lookup, 2/3', 'Lookup, 3/3'] },
    });
    await publishNow(post.id, ['X']);
    const target = (await getPost(post.id)).platformPosts[0]!;
    const [second, third] = target.followUps!;
    // Part 2 went out but its id was never stored (the worker died after X answered).
    await t.database.db.execute(
      sql`update post_target_follow_ups set status = 'PUBLISHING', external_id = null, attempt_id = gen_random_uuid(), updated_at = now() - interval '1 hour' where id = ${second!.id}`,
    );
    // Part 3 was being sent when the worker died and never reached X.
    await t.database.db.execute(sql`delete from post_target_follow_ups where id = ${third!.id}`);
    await runWatchdog({ ...t.runtime.watchdog, stuckAfterMs: 60_000 });
    const after = (await getPost(post.id)).platformPosts[0]!.followUps!;
    expect(after[0]).toMatchObject({ status: 'PUBLISHED', externalId: second!.externalId });
    expect(await onX('Lookup, 2/3')).toHaveLength(1);
  });
});

describe('a Threads chain', () => {
  it('publishes each part as a reply to the one before (reply_to_id)', async () => {
    const post = await draft(['Threads'], 'Chain on Threads, one', {
      Threads: { parts: ['Chain on Threads, two', 'Chain on Threads, three'] },
    });
    await publishNow(post.id, ['Threads']);
    const after = await getPost(post.id);
    const target = after.platformPosts[0]!;
    expect(target.status).toBe('PUBLISHED');
    expect(target.followUps!.map((f) => f.status)).toEqual(['PUBLISHED', 'PUBLISHED']);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/sandbox/threads/v1.0/${target.externalId}/conversation?fields=id,text,replied_to&reverse=false`,
      headers: { authorization: `Bearer ${(await storedAccount('Threads')).tokens.accessToken}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const nodes = res.json().data as Array<{
      id: string;
      text: string;
      replied_to?: { id: string };
    }>;
    expect(nodes.map((n) => n.text)).toEqual(['Chain on Threads, two', 'Chain on Threads, three']);
    expect(nodes[0]!.replied_to?.id ?? target.externalId).toBe(target.externalId);
    expect(nodes[1]!.replied_to?.id ?? nodes[0]!.id).toBe(nodes[0]!.id);
    expect(nodes.map((n) => n.id)).toEqual(target.followUps!.map((f) => f.externalId));
  });
});

describe('first comments', () => {
  it('are published once on Instagram, Facebook and LinkedIn, right after the post', async () => {
    const names = ['Instagram', 'Facebook', 'LinkedIn'];
    const post = await draft(
      names,
      'Fresh bread at seven',
      Object.fromEntries(names.map((n) => [n, { firstComment: `Order ahead (${n})` }])),
      [{ name: 'bread.jpg', type: 'image/jpeg', data: await jpeg(640, 480) }],
    );
    const res = await publishNow(post.id, names);
    expect(res.body.status, JSON.stringify(res.body)).toBe('success');
    const after = await getPost(post.id);
    for (const target of after.platformPosts) {
      expect(target.status).toBe('PUBLISHED');
      expect(target.followUps).toHaveLength(1);
      expect(
        target.followUps![0],
        `${target.platformName}: ${target.followUps![0]!.error}`,
      ).toMatchObject({ kind: 'first_comment', status: 'PUBLISHED' });
      if (target.platformName === 'LinkedIn') {
        // LinkedIn lets only approved apps read a member's comments: the sandbox shows them.
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/sandbox/linkedin/_emu/posts',
          headers: { cookie: owner.jar.header() },
        });
        const made = (
          res.json() as { posts: Array<{ id: string; comments: Array<{ text: string }> }> }
        ).posts.find((p) => p.id === target.externalId)!;
        expect(made.comments.map((c) => c.text)).toEqual(['Order ahead (LinkedIn)']);
        continue;
      }
      // The comment is on the network's post, once, by the account itself.
      const comments = await owner.call(
        'GET',
        `/api/organizations/${orgId}/posts/${post.id}/comments/${target.platformId}`,
      );
      expect(comments.status, JSON.stringify(comments.body)).toBe(200);
      const mine = (
        comments.body.data.comments as Array<{ message: string; isOwn: boolean }>
      ).filter((c) => c.message === `Order ahead (${target.platformName})`);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.isOwn).toBe(true);
    }
    // Running the targets again adds nothing.
    for (const target of after.platformPosts) await t.publisher.run(target.id);
    const again = await getPost(post.id);
    expect(again.platformPosts.flatMap((p) => p.followUps!.map((f) => f.externalId))).toEqual(
      after.platformPosts.flatMap((p) => p.followUps!.map((f) => f.externalId)),
    );
  });

  it('a first comment that fails is shown and the post stays published', async () => {
    // X refuses the same words twice in a row: the comment repeats the post.
    const post = await draft(['X'], 'Same words twice', {
      X: { firstComment: 'Same words twice' },
    });
    await publishNow(post.id, ['X']);
    const after = await getPost(post.id);
    expect(after.status).toBe('published');
    expect(after.platformPosts[0]!.status).toBe('PUBLISHED');
    const [comment] = after.platformPosts[0]!.followUps!;
    expect(comment!.status).toBe('FAILED');
    expect(comment!.error).toMatch(/^The first comment failed: /);
    expect(await onX('Same words twice')).toHaveLength(1);
    // The author is told, once, which part failed and why.
    const told = (await t.database.db.execute(
      sql`select message, priority from notifications where post_id = ${post.id} and type = 'POST_FAILED'`,
    )) as unknown as { rows: Array<{ message: string; priority: string }> };
    expect(told.rows).toHaveLength(1);
    expect(told.rows[0]!.message).toMatch(
      /^'Same words twice' on X\b.*: The first comment failed: /,
    );
    expect(told.rows[0]!.message.endsWith(comment!.error!)).toBe(true);
    expect(told.rows[0]!.priority).toBe('HIGH');
  });

  it("is checked by its network's comment limit, not the post's, and a refusal changes nothing", async () => {
    const count = async () =>
      (await owner.call('GET', `/api/organizations/${orgId}/posts?pageSize=1`)).body.meta
        .totalCount as number;
    const before = await count();
    // LinkedIn posts take 3,000 characters, its comments 1,250.
    const tooLong = await create({
      integrationIds: JSON.stringify([accounts.LinkedIn]),
      content: 'A post',
      action: 'draft',
      followUps: JSON.stringify({ [accounts.LinkedIn!]: { firstComment: 'c'.repeat(1251) } }),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain(
      'LinkedIn: the first comment is too long for a comment on LinkedIn (1251 of 1250 characters).',
    );
    expect(await count()).toBe(before);
    const fits = await create({
      integrationIds: JSON.stringify([accounts.LinkedIn]),
      content: 'A post',
      action: 'draft',
      followUps: JSON.stringify({ [accounts.LinkedIn!]: { firstComment: 'c'.repeat(1250) } }),
    });
    expect(fits.statusCode, fits.body).toBe(201);
    expect(await count()).toBe(before + 1);
  });

  it('is refused where the network has none, and a thread where the network has none', async () => {
    const onThreads = await create({
      integrationIds: JSON.stringify([accounts.Threads]),
      content: 'No comments here',
      action: 'draft',
      followUps: JSON.stringify({ [accounts.Threads!]: { firstComment: 'Hello' } }),
    });
    expect(onThreads.statusCode).toBe(400);
    expect(onThreads.json().message).toBe(
      'Threads: Threads has no first comment; add a second part to the thread instead.',
    );
    const onLinkedIn = await create({
      integrationIds: JSON.stringify([accounts.LinkedIn]),
      content: 'One part only',
      action: 'draft',
      followUps: JSON.stringify({ [accounts.LinkedIn!]: { parts: ['Two'] } }),
    });
    expect(onLinkedIn.statusCode).toBe(400);
    expect(onLinkedIn.json().message).toContain('LinkedIn posts cannot be a thread');
    const stray = await create({
      integrationIds: JSON.stringify([accounts.X]),
      content: 'Stray',
      action: 'draft',
      followUps: JSON.stringify({ [accounts.LinkedIn!]: { firstComment: 'Hi' } }),
    });
    expect(stray.statusCode).toBe(400);
    expect(stray.json().message).toContain('not one of the accounts this post goes to');
  });
});

describe('access', () => {
  it('keeps retrying parts to members who may publish, in the post’s organization only', async () => {
    const post = await draft(['X'], 'Access check post', { X: { parts: ['Access check, 2'] } });
    await publishNow(post.id, ['X']);
    const target = (await getPost(post.id)).platformPosts[0]!;
    const url = `/api/organizations/${orgId}/posts/${post.id}/targets/${target.id}/follow-ups/retry`;

    const support = await addMember(t.app, owner, orgId, 'support@thread.test', {
      permissions: ['dm:view'],
    });
    expect((await support.actor.call('POST', url)).status).toBe(403);

    const other = await createOrg(t.app, 'other@thread.test', 'Other Co');
    const foreign = await other.owner.call(
      'POST',
      `/api/organizations/${other.orgId}/posts/${post.id}/targets/${target.id}/follow-ups/retry`,
    );
    expect(foreign.status).toBe(404);
    // Nothing is waiting or failed: a retry says so instead of sending anything.
    const nothing = await owner.call('POST', url);
    expect(nothing.status).toBe(409);
    expect(await onX('Access check, 2')).toHaveLength(1);
  });
});
