import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';

let t: TestApp;
let owner: Actor;
let orgId: string;
let roleId: (name: string) => string;
let other: { owner: Actor; orgId: string };
const platform: Record<string, string> = {};
const account: Record<string, string> = {};
let foreignAccount: string;

async function createPost(
  fields: Record<string, string | undefined>,
  actor = owner,
  org = orgId,
): Promise<{ id: string }> {
  const body = await multipart(fields);
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${org}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.post;
}

const list = async (query: string, actor = owner, org = orgId) => {
  const res = await actor.call('GET', `/api/organizations/${org}/posts${query}`);
  return res;
};
const texts = (res: { body: any }) =>
  (res.body.data.posts as Array<{ content: string }>).map((p) => p.content).sort();
const getPost = async (id: string) =>
  owner.call('GET', `/api/organizations/${orgId}/posts/${id}`).then((r) => r.body.data?.post);
const bulk = (action: 'delete' | 'draft', postIds: unknown, actor = owner, org = orgId) =>
  actor.call('POST', `/api/organizations/${org}/posts/bulk/${action}`, { postIds });

async function integrationsOf(actor: Actor, org: string) {
  const res = await actor.call('GET', `/api/organizations/${org}/integrations`);
  return res.body.data.platforms as Array<{ id: string; platform: { name: string } }>;
}

/** Publications the X sandbox actually made. */
async function publishedOnX(): Promise<string[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/sandbox/x/_emu/posts',
    headers: { cookie: owner.jar.header() },
  });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  const rows: Array<{ text: string }> = Array.isArray(body) ? body : (body.posts ?? body.data);
  return rows.map((row) => row.text);
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  // The worker runs here too, so a post whose job was not cancelled would really go out.
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE] });
  ({ owner, orgId, roleId } = await createOrg(t.app, 'bulk@posts.test', 'Bulk Co'));
  other = await createOrg(t.app, 'other@posts.test', 'Other Co');
  for (const slug of ['x', 'threads']) await connectThroughSandbox(t.app, owner, slug, orgId);
  await connectThroughSandbox(t.app, other.owner, 'x', other.orgId);
  const supported = await owner.call('GET', '/api/platforms/supported');
  for (const p of supported.body.data.platforms as Array<{ id: string; name: string }>) {
    platform[p.name] = p.id;
  }
  for (const row of await integrationsOf(owner, orgId)) account[row.platform.name] = row.id;
  foreignAccount = (await integrationsOf(other.owner, other.orgId))[0]!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('filtering the list by network, account and status', () => {
  beforeAll(async () => {
    const both = JSON.stringify([platform.X, platform.Threads]);
    await createPost({
      platformIds: JSON.stringify([platform.X]),
      content: 'Only X',
      action: 'draft',
    });
    await createPost({
      platformIds: JSON.stringify([platform.Threads]),
      content: 'Only Threads',
      scheduledAt: inDays(3),
    });
    await createPost({ platformIds: both, content: 'Both networks', scheduledAt: inDays(4) });
    await createPost(
      { platformIds: JSON.stringify([platform.X]), content: 'Elsewhere', action: 'draft' },
      other.owner,
      other.orgId,
    );
  });

  it('keeps the posts that go to the network or the account, combined with status and search', async () => {
    expect(texts(await list(`?platformId=${platform.X}`))).toEqual(['Both networks', 'Only X']);
    expect(texts(await list(`?integrationId=${account.Threads}`))).toEqual([
      'Both networks',
      'Only Threads',
    ]);
    expect(texts(await list(`?integrationId=${account.X}&status=scheduled`))).toEqual([
      'Both networks',
    ]);
    expect(texts(await list(`?platformId=${platform.Threads}&q=only`))).toEqual(['Only Threads']);
    const paged = await list(`?platformId=${platform.X}&page=1&pageSize=1`);
    expect(paged.body.meta.totalCount).toBe(2);
    // A network none of the posts goes to.
    expect(texts(await list(`?platformId=${platform.LinkedIn}`))).toEqual([]);
  });

  it('finds nothing through another organization’s account, and keeps their posts out', async () => {
    const foreign = await list(`?integrationId=${foreignAccount}`);
    expect(foreign.status).toBe(200);
    expect(texts(foreign)).toEqual([]);
    const theirs = await list(`?platformId=${platform.X}`, other.owner, other.orgId);
    expect(texts(theirs)).toEqual(['Elsewhere']);
  });

  it('refuses ids that are not ids with a sentence', async () => {
    const res = await list('?integrationId=x-account');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('integrationId must be the id of a connected account');
    const net = await list('?platformId=X');
    expect(net.status).toBe(400);
    expect(net.body.message).toContain('platformId must be the id of a network');
  });
});

describe('bulk actions', () => {
  it('moves scheduled posts back to draft, so they are not published when their time comes', async () => {
    const soon = new Date(Date.now() + 2500).toISOString();
    const ids = [
      (
        await createPost({
          platformIds: JSON.stringify([platform.X]),
          content: 'Bulk held one',
          scheduledAt: soon,
        })
      ).id,
      (
        await createPost({
          platformIds: JSON.stringify([platform.X]),
          content: 'Bulk held two',
          scheduledAt: soon,
        })
      ).id,
    ];
    const keeps = await createPost({
      platformIds: JSON.stringify([platform.X]),
      content: 'Bulk goes out',
      scheduledAt: soon,
    });
    const res = await bulk('draft', ids);
    expect(res.status).toBe(200);
    expect(res.body.data.count).toBe(2);
    expect([...res.body.data.postIds].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      expect(await getPost(id)).toMatchObject({ status: 'draft', scheduledAt: null });
    }
    // The untouched post goes out; the two moved ones stay home.
    const end = Date.now() + 20_000;
    while ((await getPost(keeps.id)).status !== 'published' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 250));
    }
    expect((await getPost(keeps.id)).status).toBe('published');
    await new Promise((r) => setTimeout(r, 1500));
    const out = await publishedOnX();
    expect(out).toContain('Bulk goes out');
    expect(out).not.toContain('Bulk held one');
    expect(out).not.toContain('Bulk held two');
    for (const id of ids) expect((await getPost(id)).status).toBe('draft');
  }, 40_000);

  it('deletes posts and cancels their jobs', async () => {
    const a = await createPost({
      platformIds: JSON.stringify([platform.X]),
      content: 'Bulk gone a',
      scheduledAt: inDays(1),
    });
    const b = await createPost({
      platformIds: JSON.stringify([platform.X]),
      content: 'Bulk gone b',
      action: 'draft',
    });
    const jobs = await t.database.db.execute(
      sql`select job_id from post_targets where post_id = ${a.id} and job_id is not null`,
    );
    const jobIds = (jobs as unknown as { rows: Array<{ job_id: string }> }).rows.map(
      (r) => r.job_id,
    );
    expect(jobIds.length).toBeGreaterThan(0);

    const res = await bulk('delete', [a.id, b.id, a.id]);
    expect(res.status).toBe(200);
    expect(res.body.data.count).toBe(2);
    expect((await owner.call('GET', `/api/organizations/${orgId}/posts/${a.id}`)).status).toBe(404);
    expect((await owner.call('GET', `/api/organizations/${orgId}/posts/${b.id}`)).status).toBe(404);
    const left = await t.database.db.execute(
      sql`select state from pgboss.job where id in (${sql.join(
        jobIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) and state in ('created', 'retry', 'active')`,
    );
    expect((left as unknown as { rows: unknown[] }).rows).toHaveLength(0);
  });

  it('refuses the whole request when one post cannot take the action, naming it', async () => {
    const draft = await createPost({
      platformIds: JSON.stringify([platform.X]),
      content: 'Still a draft',
      action: 'draft',
    });
    const out = await createPost({
      platformIds: JSON.stringify([platform.X]),
      content: 'Old news',
      action: 'draft',
    });
    const busy = await createPost({
      platformIds: JSON.stringify([platform.X]),
      content: 'On its way',
      action: 'draft',
      title: 'Going out now',
    });
    await t.database.db.execute(
      sql`update posts set status = 'published', published_at = now() where id = ${out.id}`,
    );
    await t.database.db.execute(sql`update posts set status = 'publishing' where id = ${busy.id}`);

    const toDraft = await bulk('draft', [draft.id, out.id]);
    expect(toDraft.status).toBe(409);
    expect(toDraft.body.message).toBe(
      "'Old news' is already published (to at least one account) and cannot go back to draft. Nothing was changed: unselect them and try again.",
    );
    expect(toDraft.body.details.postIds).toEqual([out.id]);
    expect((await getPost(out.id)).status).toBe('published');

    const del = await bulk('delete', [draft.id, busy.id]);
    expect(del.status).toBe(409);
    expect(del.body.message).toContain(
      "'Going out now' is being published right now and cannot be deleted.",
    );
    expect(await getPost(draft.id)).toBeTruthy();

    // A published post may be deleted, as one at a time.
    const gone = await bulk('delete', [out.id]);
    expect(gone.status).toBe(200);
    await t.database.db.execute(sql`update posts set status = 'draft' where id = ${busy.id}`);
  });

  it('keeps other organizations’ posts out: 404, and nothing changes', async () => {
    const mine = await createPost({
      platformIds: JSON.stringify([platform.X]),
      content: 'Mine to keep',
      action: 'draft',
    });
    const theirs = await createPost(
      {
        platformIds: JSON.stringify([platform.X]),
        content: 'Theirs to keep',
        scheduledAt: inDays(2),
      },
      other.owner,
      other.orgId,
    );
    const res = await bulk('delete', [mine.id, theirs.id]);
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/One of the chosen posts does not exist in this organization/);
    expect(await getPost(mine.id)).toBeTruthy();
    const draft = await bulk('draft', [theirs.id]);
    expect(draft.status).toBe(404);
    const still = await other.owner.call(
      'GET',
      `/api/organizations/${other.orgId}/posts/${theirs.id}`,
    );
    expect(still.body.data.post.status).toBe('scheduled');
    // Posting into the other organization is refused at the door.
    expect((await bulk('delete', [theirs.id], owner, other.orgId)).status).toBe(403);
  });

  it('validates the list of posts', async () => {
    const empty = await bulk('delete', []);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('Choose at least one post.');
    const many = await bulk(
      'draft',
      Array.from({ length: 101 }, () => crypto.randomUUID()),
    );
    expect(many.status).toBe(400);
    expect(many.body.message).toContain('Choose at most 100 posts at a time.');
    const bad = await bulk('delete', ['post-1']);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Each post id must be the id of a post');
  });

  it('needs post:delete to delete and post:edit to move to draft', async () => {
    const { actor: creator } = await addMember(t.app, owner, orgId, 'creator@posts.test', {
      roleId: roleId('ContentCreator'),
    });
    const post = await createPost({
      platformIds: JSON.stringify([platform.X]),
      content: 'Guarded',
      scheduledAt: inDays(2),
    });
    const del = await bulk('delete', [post.id], creator);
    expect(del.status).toBe(403);
    expect(del.body.message).toMatch(/Your role does not allow this/);
    expect(await getPost(post.id)).toBeTruthy();
    const moved = await bulk('draft', [post.id], creator);
    expect(moved.status).toBe(200);
    expect((await getPost(post.id)).status).toBe('draft');
  });
});
