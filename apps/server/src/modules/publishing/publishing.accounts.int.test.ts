import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { PUBLISH_QUEUE } from './publish-queue.js';

/** Posts name the accounts they go out from: two accounts of one network never mix. */
let t: TestApp;
let owner: Actor;
let orgId: string;
const platform: Record<string, string> = {};
const account: Record<string, string> = {};

interface Target {
  id: string;
  externalId: string | null;
  integrationId: string | null;
  accountUsername: string | null;
  status: string;
  error: string | null;
}

async function createPost(fields: Record<string, string | undefined>) {
  const body = await multipart(fields, []);
  const res = await send(t.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const getPost = async (id: string) =>
  (await owner.call('GET', `/api/organizations/${orgId}/posts/${id}`)).body.data.post as {
    status: string;
    accounts: Array<{ id: string | null; username: string | null; connected: boolean }>;
    platformPosts: Target[];
  };

/** What the X sandbox published from one account, oldest first. */
async function publishedBy(username: string): Promise<string[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/sandbox/x/_emu/posts?account=${username}`,
    headers: { cookie: owner.jar.header() },
  });
  expect(res.statusCode).toBe(200);
  return (res.json().posts as Array<{ text: string }>).map((p) => p.text);
}

async function integrations() {
  const res = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
  expect(res.status).toBe(200);
  return res.body.data.platforms as Array<{
    id: string;
    metadata: { username: string | null };
    scheduledPostCount: number;
  }>;
}

async function connectX(username: string) {
  const done = await connectThroughSandbox(t.app, owner, 'x', orgId, { account: username });
  expect(done).toContain('connected=');
  const row = (await integrations()).find((i) => i.metadata.username === username);
  expect(row).toBeDefined();
  return row!.id;
}

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE] });
  ({ owner, orgId } = await createOrg(t.app, 'two@accounts.test', 'Two Accounts Co'));
  account.first = await connectX('acct_first');
  account.second = await connectX('acct_second');
  const threads = await connectThroughSandbox(t.app, owner, 'threads', orgId);
  expect(threads).toContain('connected=');
  const supported = await owner.call('GET', '/api/platforms/supported');
  for (const p of supported.body.data.platforms as Array<{ id: string; name: string }>) {
    platform[p.name] = p.id;
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('posts go out from the accounts they name', () => {
  it('a post for the second of two X accounts goes out from the second only', async () => {
    const created = await createPost({
      integrationIds: JSON.stringify([account.second]),
      content: 'Only from the second account',
      action: 'draft',
    });
    expect(created.status).toBe(201);
    const post = created.body.data.post;
    expect(post.accounts).toEqual([
      expect.objectContaining({ id: account.second, username: 'acct_second', connected: true }),
    ]);
    expect(post.platforms).toEqual([{ id: platform.X, name: 'X' }]);

    const res = await owner.call('PATCH', `/api/organizations/${orgId}/post/${post.id}/publish`, {
      platforms: ['X'],
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(await publishedBy('acct_second')).toContain('Only from the second account');
    expect(await publishedBy('acct_first')).not.toContain('Only from the second account');
    const after = await getPost(post.id);
    expect(after.platformPosts).toEqual([
      expect.objectContaining({
        integrationId: account.second,
        accountUsername: 'acct_second',
        status: 'PUBLISHED',
      }),
    ]);
  });

  it('reads comments and replies as the account the post went out from', async () => {
    const created = await createPost({
      integrationIds: JSON.stringify([account.first]),
      content: 'Ask us anything, first account here',
      action: 'draft',
    });
    const postId = created.body.data.post.id as string;
    const published = await owner.call(
      'PATCH',
      `/api/organizations/${orgId}/post/${postId}/publish`,
      { platforms: ['X'] },
    );
    expect(published.body.status).toBe('success');
    const tweetId = (await getPost(postId)).platformPosts[0]!.externalId as string;
    const visitor = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/x/_emu/comments',
      headers: { cookie: owner.jar.header() },
      payload: { postId: tweetId, fromName: 'Quinn Reader', message: '@acct_first which beans?' },
    });
    expect(visitor.statusCode).toBe(201);

    const list = await owner.call(
      'GET',
      `/api/organizations/${orgId}/posts/${postId}/comments/${platform.X}`,
    );
    expect(list.status).toBe(200);
    const comment = list.body.data.comments.find(
      (c: { message: string }) => c.message === '@acct_first which beans?',
    );
    expect(comment).toBeDefined();
    const reply = await owner.call(
      'POST',
      `/api/organization/${orgId}/platform/${platform.X}/comment/${comment.id}/replies`,
      { message: 'Single origin, this week', postId },
    );
    expect(reply.status).toBe(200);
    // The reply is the first account's, not the newest X account's.
    const replies = await t.app.inject({
      method: 'GET',
      url: '/api/sandbox/x/_emu/posts?account=acct_first&replies=1',
      headers: { cookie: owner.jar.header() },
    });
    expect(replies.json().posts.map((p: { text: string }) => p.text)).toContain(
      'Single origin, this week',
    );
    expect(await publishedBy('acct_second')).not.toContain('Single origin, this week');
  });

  it("keeps each X account's comments apart when one post went out from both", async () => {
    const created = await createPost({
      integrationIds: JSON.stringify([account.first, account.second]),
      content: 'From both of us',
      action: 'draft',
    });
    const postId = created.body.data.post.id as string;
    const published = await owner.call(
      'PATCH',
      `/api/organizations/${orgId}/post/${postId}/publish`,
      { platforms: ['X'] },
    );
    expect(published.body.status).toBe('success');
    const targets = (await getPost(postId)).platformPosts;
    const tweetOf = (id: string) => targets.find((p) => p.integrationId === id)!.externalId!;
    for (const [id, message] of [
      [account.first!, '@acct_first hello first'],
      [account.second!, '@acct_second hello second'],
    ] as const) {
      const visitor = await t.app.inject({
        method: 'POST',
        url: '/api/sandbox/x/_emu/comments',
        headers: { cookie: owner.jar.header() },
        payload: { postId: tweetOf(id), fromName: 'Quinn Reader', message },
      });
      expect(visitor.statusCode).toBe(201);
    }

    const messagesOf = async (id: string) => {
      const list = await owner.call(
        'GET',
        `/api/organizations/${orgId}/posts/${postId}/comments/${platform.X}?integrationId=${id}`,
      );
      expect(list.status).toBe(200);
      return list.body.data.comments.map((c: { message: string }) => c.message);
    };
    expect(await messagesOf(account.first!)).toEqual(['@acct_first hello first']);
    const second = await owner.call(
      'GET',
      `/api/organizations/${orgId}/posts/${postId}/comments/${platform.X}?integrationId=${account.second}`,
    );
    expect(second.body.data.comments.map((c: { message: string }) => c.message)).toEqual([
      '@acct_second hello second',
    ]);

    const reply = await owner.call(
      'POST',
      `/api/organization/${orgId}/platform/${platform.X}/comment/${second.body.data.comments[0].id}/replies`,
      { message: 'Thanks from the second', postId, integrationId: account.second },
    );
    expect(reply.status).toBe(200);
    const replies = await t.app.inject({
      method: 'GET',
      url: '/api/sandbox/x/_emu/posts?account=acct_second&replies=1',
      headers: { cookie: owner.jar.header() },
    });
    expect(replies.json().posts.map((p: { text: string }) => p.text)).toContain(
      'Thanks from the second',
    );

    const notThere = await owner.call(
      'GET',
      `/api/organizations/${orgId}/posts/${postId}/comments/${platform.X}?integrationId=00000000-0000-4000-8000-000000000000`,
    );
    expect(notThere.status).toBe(404);
    expect(notThere.body.message).toBe('This post does not go out from that account.');
  });

  it('refuses a platform id alone when two accounts of that network are connected, naming them', async () => {
    const res = await createPost({
      platformIds: JSON.stringify([platform.X]),
      content: 'Which one?',
      action: 'draft',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^X has 2 connected accounts: /);
    expect(res.body.message).toContain('acct_first — id ');
    expect(res.body.message).toContain('acct_second — id ');
    expect(res.body.message).toContain(account.second);
    expect(res.body.message).toContain('integrationIds');
  });

  it('still takes a platform id when the network has one connected account', async () => {
    const res = await createPost({
      platformIds: JSON.stringify([platform.Threads]),
      integrationIds: JSON.stringify([account.first]),
      content: 'One Threads account, one X account',
      action: 'draft',
    });
    expect(res.status).toBe(201);
    const targets = res.body.data.post.platformPosts as Array<Target & { platformName: string }>;
    expect(targets.map((p) => p.platformName).sort()).toEqual(['Threads', 'X']);
    const threads = (await integrations()).find((i) => !Object.values(account).includes(i.id))!;
    expect(targets.find((p) => p.platformName === 'Threads')!.integrationId).toBe(threads.id);
    expect(targets.find((p) => p.platformName === 'X')!.integrationId).toBe(account.first);
  });

  it('gives each account its own text: account entry, then network entry, then default', async () => {
    const created = await createPost({
      integrationIds: JSON.stringify([account.first, account.second]),
      content: JSON.stringify({
        default: 'Shared words',
        [platform.X!]: 'Words for every X account',
        [account.second!]: 'Words for the second account only',
      }),
      action: 'draft',
    });
    expect(created.status).toBe(201);
    const post = created.body.data.post;
    expect(post.accounts.map((a: { username: string }) => a.username).sort()).toEqual([
      'acct_first',
      'acct_second',
    ]);
    const res = await owner.call('PATCH', `/api/organizations/${orgId}/post/${post.id}/publish`, {
      platforms: ['X'],
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.results).sort()).toEqual(['X (acct_first)', 'X (acct_second)']);
    expect(await publishedBy('acct_second')).toContain('Words for the second account only');
    expect(await publishedBy('acct_first')).toContain('Words for every X account');
    expect(await publishedBy('acct_first')).not.toContain('Words for the second account only');
  });

  it('refuses text keyed by an account the post does not go to', async () => {
    const res = await createPost({
      integrationIds: JSON.stringify([account.first]),
      content: JSON.stringify({ default: 'Hi', [account.second!]: 'Not for this post' }),
      action: 'draft',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(account.second);
  });
});

describe('disconnecting an account with scheduled posts', () => {
  it('counts the posts it affects, and a post for it fails naming the account', async () => {
    const doomed = await connectX('acct_doomed');
    const before = (await integrations()).find((i) => i.id === doomed)!;
    expect(before.scheduledPostCount).toBe(0);
    const first = await createPost({
      integrationIds: JSON.stringify([doomed]),
      content: 'Scheduled for the account that goes away',
      scheduledAt: inAnHour(),
    });
    expect(first.status).toBe(201);
    const second = await createPost({
      integrationIds: JSON.stringify([doomed, account.first]),
      content: 'Also scheduled for it',
      scheduledAt: inAnHour(),
    });
    expect(second.status).toBe(201);
    const counts = await integrations();
    expect(counts.find((i) => i.id === doomed)!.scheduledPostCount).toBe(2);

    const gone = await owner.call('POST', `/api/x/disconnect/${orgId}`, { integrationId: doomed });
    expect(gone.status).toBe(200);
    expect((await integrations()).some((i) => i.id === doomed)).toBe(false);

    const postId = first.body.data.post.id as string;
    const res = await owner.call('PATCH', `/api/organizations/${orgId}/post/${postId}/publish`, {
      platforms: ['X'],
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    const after = await getPost(postId);
    expect(after.accounts).toEqual([
      expect.objectContaining({ id: null, username: 'acct_doomed', connected: false }),
    ]);
    expect(after.platformPosts[0]!.status).toBe('FAILED');
    expect(after.platformPosts[0]!.error).toMatch(
      /^The X account acct_doomed was disconnected; reconnect it in Settings or choose another account/,
    );
    expect(await publishedBy('acct_doomed')).toEqual([]);
    expect(await publishedBy('acct_first')).not.toContain(
      'Scheduled for the account that goes away',
    );

    // Reconnecting the same account gives the still-waiting post its account back.
    const back = await connectX('acct_doomed');
    const waiting = await getPost(second.body.data.post.id as string);
    expect(waiting.accounts.find((a) => a.username === 'acct_doomed')).toEqual(
      expect.objectContaining({ id: back, connected: true }),
    );
  });
});
