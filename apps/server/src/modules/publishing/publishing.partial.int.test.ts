import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { PUBLISH_QUEUE } from './publish-queue.js';

/** A scheduled post published now to one network only. */
let t: TestApp;
let owner: Actor;
let orgId: string;
const platformIds: Record<string, string> = {};

interface TargetDto {
  id: string;
  platformName: string;
  status: string;
  dueAt: string | null;
  publishedAt: string | null;
  error: string | null;
}
interface PostDto {
  id: string;
  status: string;
  scheduledAt: string | null;
  publishedAt: string | null;
  platformPosts: TargetDto[];
}

async function schedule(text: string, names: string[], scheduledAt: string): Promise<PostDto> {
  const body = await multipart({
    platformIds: JSON.stringify(names.map((name) => platformIds[name])),
    content: text,
    scheduledAt,
  });
  const res = await send(t.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.post;
}

const getPost = async (id: string): Promise<PostDto> =>
  (await owner.call('GET', `/api/organizations/${orgId}/posts/${id}`)).body.data.post;

const target = (post: PostDto, name: string) =>
  post.platformPosts.find((p) => p.platformName === name)!;

const publishNow = (postId: string, platforms: string[]) =>
  owner.call('PATCH', `/api/organizations/${orgId}/post/${postId}/publish`, { platforms });

/** Publications a sandbox made whose text is `text`. */
async function madeOn(slug: string, text: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/sandbox/${slug}/_emu/posts`,
    headers: { cookie: owner.jar.header() },
  });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  const list: Array<Record<string, unknown>> = Array.isArray(body)
    ? body
    : (body.posts ?? body.data);
  return list.filter((p) => JSON.stringify(p).includes(text));
}

beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE] });
  ({ owner, orgId } = await createOrg(t.app, 'partial@engine.test', 'Partial Co'));
  for (const slug of ['x', 'threads']) {
    expect(await connectThroughSandbox(t.app, owner, slug, orgId)).toContain('connected=');
  }
  // LinkedIn's personal profile sign-in (its default connect kind) connects the member alone.
  expect(await connectThroughSandbox(t.app, owner, 'linkedin', orgId)).toContain(
    'connected=LinkedIn',
  );
  const supported = await owner.call('GET', '/api/platforms/supported');
  for (const p of supported.body.data.platforms as Array<{ id: string; name: string }>) {
    platformIds[p.name] = p.id;
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('publish now to some networks of a scheduled post', () => {
  it('leaves the others queued for their time and reads partially published until all are out', async () => {
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString();
    const text = 'Lanterns at the pier tomorrow';
    const post = await schedule(text, ['X', 'Threads', 'LinkedIn'], tomorrow);
    expect(post.status).toBe('scheduled');
    for (const p of post.platformPosts)
      expect(p).toMatchObject({ status: 'QUEUED', dueAt: tomorrow });

    const res = await publishNow(post.id, ['X']);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual({ X: { status: 'success', error: null } });

    const after = await getPost(post.id);
    expect(after.status).toBe('partially_published');
    // Not fully out yet: the post has no Published At of its own.
    expect(after.publishedAt).toBeNull();
    expect(after.scheduledAt).toBe(tomorrow);
    expect(target(after, 'X')).toMatchObject({ status: 'PUBLISHED', dueAt: null });
    expect(target(after, 'X').publishedAt).toBeTruthy();
    for (const name of ['Threads', 'LinkedIn']) {
      expect(target(after, name)).toMatchObject({ status: 'QUEUED', dueAt: tomorrow, error: null });
    }
    expect(await madeOn('x', text)).toHaveLength(1);
    expect(await madeOn('linkedin', text)).toHaveLength(0);

    // A stray run for a target due tomorrow does nothing now.
    expect(await t.publisher.run(target(after, 'Threads').id)).toBe('SKIPPED');
    expect(await madeOn('linkedin', text)).toHaveLength(0);

    // The library finds it under its own status, and among published ones with the tab's list.
    const only = await owner.call(
      'GET',
      `/api/organizations/${orgId}/posts?status=partially_published`,
    );
    expect(only.body.data.posts.map((p: PostDto) => p.id)).toEqual([post.id]);
    const tab = await owner.call(
      'GET',
      `/api/organizations/${orgId}/posts?status=published,partially_published`,
    );
    expect(tab.body.data.posts.map((p: PostDto) => p.id)).toContain(post.id);
    const scheduledOnly = await owner.call(
      'GET',
      `/api/organizations/${orgId}/posts?status=scheduled`,
    );
    expect(scheduledOnly.body.data.posts.map((p: PostDto) => p.id)).not.toContain(post.id);

    // Tomorrow comes: the queued targets go out by themselves, once, and the post is published.
    await t.database.db.execute(
      sql`update post_targets set due_at = now() - interval '1 minute' where post_id = ${post.id} and status = 'QUEUED'`,
    );
    const outcomes = await Promise.all(
      ['Threads', 'LinkedIn'].flatMap((name) => [
        t.publisher.run(target(after, name).id),
        t.publisher.run(target(after, name).id),
      ]),
    );
    expect(outcomes.filter((o) => o === 'PUBLISHED')).toHaveLength(2);
    const done = await getPost(post.id);
    expect(done.status).toBe('published');
    expect(done.publishedAt).toBeTruthy();
    expect(done.platformPosts.every((p) => p.status === 'PUBLISHED')).toBe(true);
    expect(await madeOn('x', text)).toHaveLength(1);
    expect(await madeOn('linkedin', text)).toHaveLength(1);
  });

  it('a failure beside a publication reads partially published, with the failed network named', async () => {
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString();
    const post = await schedule('Harbor fog warning', ['X', 'Threads'], tomorrow);
    // Threads refuses: its account is no longer connected.
    await t.database.db.execute(
      sql`update integrations set status = 'DISCONNECTED' where organization_id = ${orgId} and platform_id = ${platformIds.Threads}`,
    );
    try {
      const res = await publishNow(post.id, ['X', 'Threads']);
      expect(res.body.status).toBe('partial_success');
      const after = await getPost(post.id);
      expect(after.status).toBe('partially_published');
      expect(target(after, 'Threads').status).toBe('FAILED');
      expect(target(after, 'Threads').error).toMatch(/reconnect/);
      // Nothing is left waiting: the post went out when X had it.
      expect(after.publishedAt).toBe(target(after, 'X').publishedAt);
    } finally {
      await t.database.db.execute(
        sql`update integrations set status = 'CONNECTED' where organization_id = ${orgId} and platform_id = ${platformIds.Threads}`,
      );
    }
  });

  it('a reschedule keeps what went out and the post stays partially published', async () => {
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString();
    const post = await schedule('Boats return at noon', ['X', 'Threads'], tomorrow);
    await publishNow(post.id, ['X']);
    const later = new Date(Date.now() + 48 * 3600_000).toISOString();
    const res = await owner.call('PUT', `/api/organizations/${orgId}/posts/${post.id}`, {
      scheduledAt: later,
    });
    expect(res.status).toBe(200);
    const after = await getPost(post.id);
    expect(after.status).toBe('partially_published');
    expect(target(after, 'X').status).toBe('PUBLISHED');
    expect(target(after, 'Threads')).toMatchObject({ status: 'QUEUED', dueAt: later });
  });
});
