import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { emuInject } from '../../test/network-tests.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';

/**
 * docs/networks.md#mastodon-post-settings: a Mastodon post's content warning, visibility and
 * language, through Herald's API to the status its server makes.
 */
let t: TestApp;
let owner: Actor;
let orgId: string;
let mastodonId: string;
const ACCOUNT = 'cw_writer';

interface Target {
  integrationId: string | null;
  status: string;
  externalId: string | null;
  mastodon?: Record<string, unknown> | null;
}

async function submit(method: 'POST' | 'PUT', url: string, fields: Record<string, string>) {
  const body = await multipart(fields, []);
  const res = await send(t.app, owner.jar, {
    method,
    url,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
const createPost = (fields: Record<string, string>) =>
  submit('POST', `/api/organizations/${orgId}/post`, {
    integrationIds: JSON.stringify([mastodonId]),
    content: 'The ending of the film, discussed',
    ...fields,
  });
const mastodonField = (settings: object) => JSON.stringify({ [mastodonId]: settings });

async function waitForTarget(postId: string, status: string): Promise<Target> {
  for (let i = 0; i < 100; i += 1) {
    const post = (await owner.call('GET', `/api/organizations/${orgId}/posts/${postId}`)).body.data
      .post as { platformPosts: Target[] };
    const target = post.platformPosts[0]!;
    if (target.status === status) return target;
    if (target.status === 'FAILED') throw new Error(`target failed: ${JSON.stringify(target)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`target never reached ${status}`);
}

beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE] });
  ({ owner, orgId } = await createOrg(t.app, 'mastodon@compose.test', 'Spoiler Co'));
  await connectThroughSandbox(t.app, owner, 'mastodon', orgId, {
    instance: 'social.example',
    account: ACCOUNT,
  });
  const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
    .platforms as Array<{ id: string; platform: { name: string } }>;
  mastodonId = list.find((i) => i.platform.name === 'Mastodon')!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a Mastodon post’s settings', () => {
  it('refuses a visibility, a language or a content warning Mastodon would not take, in words', async () => {
    const visibility = await createPost({ mastodon: mastodonField({ visibility: 'friends' }) });
    expect(visibility.status).toBe(400);
    expect(visibility.body.message).toMatch(
      /The Mastodon visibility must be one of public, unlisted, private \(followers only\) or direct/,
    );
    const language = await createPost({ mastodon: mastodonField({ language: 'english' }) });
    expect(language.status).toBe(400);
    expect(language.body.message).toMatch(/two-letter ISO 639-1 code/);
    const warning = await createPost({ mastodon: mastodonField({ spoilerText: 'x'.repeat(501) }) });
    expect(warning.status).toBe(400);
    expect(warning.body.message).toMatch(/content warning can be at most 500 characters/);
    const stray = await createPost({
      mastodon: JSON.stringify({
        '7b4a4a34-8f64-4f1c-9a6e-0c5d0b6b1a11': { visibility: 'direct' },
      }),
    });
    expect(stray.status).toBe(400);
    expect(stray.body.message).toMatch(/not one of the Mastodon accounts this post goes to/);
  });

  it('keeps them on a draft, through an edit and a duplicate', async () => {
    const draft = await createPost({
      mastodon: mastodonField({
        spoilerText: 'Film ending',
        visibility: 'unlisted',
        language: 'EN',
      }),
    });
    expect(draft.status).toBe(201);
    const post = draft.body.data.post as { id: string; platformPosts: Target[] };
    expect(post.platformPosts[0]!.mastodon).toEqual({
      spoilerText: 'Film ending',
      visibility: 'unlisted',
      language: 'en',
    });
    const edited = await submit('PUT', `/api/organizations/${orgId}/post/${post.id}`, {
      integrationIds: JSON.stringify([mastodonId]),
      content: 'The ending of the film, discussed',
      scheduledAt: inHours(3),
      keepMediaIds: JSON.stringify([]),
      mastodon: mastodonField({ spoilerText: 'Book ending', visibility: 'private' }),
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.post.platformPosts[0].mastodon).toEqual({
      spoilerText: 'Book ending',
      visibility: 'private',
      language: null,
    });
    const copy = await owner.call('POST', `/api/organizations/${orgId}/posts/${post.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body.data.post.platformPosts[0].mastodon).toEqual({
      spoilerText: 'Book ending',
      visibility: 'private',
      language: null,
    });
  });

  it('shows a client the content warning on the approval link’s preview', async () => {
    const made = await createPost({
      scheduledAt: inHours(5),
      mastodon: mastodonField({ spoilerText: 'Film ending' }),
    });
    expect(made.status).toBe(201);
    const postId = made.body.data.post.id as string;
    // A post waiting for approval, as a Content Creator's submission leaves it.
    await t.database.db.execute(
      sql`update posts set status = 'pending_approval' where id = ${postId}`,
    );
    const link = await owner.call('POST', `/api/organizations/${orgId}/approval-links`, {
      postIds: [postId],
      approverName: 'Dana Client',
    });
    expect(link.status).toBe(201);
    const token = (link.body.data.url as string).split('/approve/')[1]!;
    const page = await t.app.inject({ method: 'GET', url: `/api/guest/approvals/${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.json().data.posts[0].accounts[0]).toMatchObject({
      network: 'Mastodon',
      text: 'The ending of the film, discussed',
      contentWarning: 'Film ending',
    });
  });

  it('sends them with the status when the post is published', async () => {
    const created = await createPost({
      action: 'publish',
      content: 'Who did it, at last',
      mastodon: mastodonField({
        spoilerText: 'Mystery solved',
        visibility: 'unlisted',
        language: 'fr',
      }),
    });
    expect(created.status).toBe(201);
    const target = await waitForTarget(created.body.data.post.id, 'PUBLISHED');
    const res = await emuInject(t, 'mastodon', 'GET', `social.example/statuses?account=${ACCOUNT}`);
    const { statuses } = res.json() as { statuses: Array<Record<string, unknown>> };
    expect(statuses.find((s) => s.id === target.externalId)).toMatchObject({
      text: 'Who did it, at last',
      spoilerText: 'Mystery solved',
      visibility: 'unlisted',
      language: 'fr',
    });
  });
});
