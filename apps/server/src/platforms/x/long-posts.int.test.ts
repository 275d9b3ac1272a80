import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISH_QUEUE } from '../../modules/publishing/publish-queue.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { emuInject } from '../../test/network-tests.js';
import { pkcePair } from '../../test/sandbox-harness.js';

/**
 * X Premium subscribers may post long texts (docs/networks.md#x-limits): the limit is read from
 * X at connect (and on refresh), stored on the account, and used by the post check; the X
 * sandbox takes long posts only from its Premium users.
 */
let t: TestApp;
let owner: Actor;
let orgId: string;

interface Account {
  id: string;
  metadata: { username: string | null };
  textLimit: number | null;
}

async function integrations() {
  const res = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
  expect(res.status).toBe(200);
  return res.body.data.platforms as Account[];
}

async function connectX(username: string, subscription?: 'Premium' | 'None') {
  const done = await connectThroughSandbox(t.app, owner, 'x', orgId, {
    account: username,
    fields: subscription ? { subscription } : {},
  });
  expect(done).toContain('connected=');
  const row = (await integrations()).find((i) => i.metadata.username === username);
  expect(row).toBeDefined();
  return row!;
}

async function createPost(fields: Record<string, string>, postId?: string) {
  const body = await multipart(fields, []);
  const res = await send(t.app, owner.jar, {
    method: postId ? 'PUT' : 'POST',
    url: `/api/organizations/${orgId}/post${postId ? `/${postId}` : ''}`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

/** Switches the sandbox user's X Premium subscription (the `premium` knob). */
async function setPremium(account: string, on: boolean) {
  const res = await emuInject(t, 'x', 'POST', 'scenario', { account, knob: 'premium', on });
  expect(res.statusCode).toBe(200);
}

async function publishedBy(username: string): Promise<string[]> {
  const res = await emuInject(t, 'x', 'GET', `posts?account=${username}`);
  expect(res.statusCode).toBe(200);
  return (res.json().posts as Array<{ text: string }>).map((p) => p.text);
}

beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE] });
  ({ owner, orgId } = await createOrg(t.app, 'long@posts.test', 'Long Posts Co'));
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('long X posts for Premium subscribers', () => {
  it('publishes 1,000 characters from a Premium account, and refuses them for a normal one at create', async () => {
    const premium = await connectX('long_writer', 'Premium');
    const normal = await connectX('short_writer');
    expect(premium.textLimit).toBe(25_000);
    expect(normal.textLimit).toBeNull();

    const text = `${'Long form. '.repeat(90)}The end!!`;
    expect(text).toHaveLength(999);
    const long = `${text}!`;
    const created = await createPost({
      integrationIds: JSON.stringify([premium.id]),
      content: long,
      action: 'draft',
    });
    expect(created.status).toBe(201);
    const postId = created.body.data.post.id as string;
    const published = await owner.call(
      'PATCH',
      `/api/organizations/${orgId}/post/${postId}/publish`,
      { platforms: ['X'] },
    );
    expect(published.status).toBe(200);
    expect(published.body.status).toBe('success');
    expect(await publishedBy('long_writer')).toEqual([long]);

    const refused = await createPost({
      integrationIds: JSON.stringify([normal.id]),
      content: long,
      action: 'publish',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('The text is too long for X: 1000 of 280 characters.');
    expect(await publishedBy('short_writer')).toEqual([]);

    // An edit checks the accounts it moves the text to in the same way.
    const draft = await createPost({
      integrationIds: JSON.stringify([premium.id]),
      content: long,
      action: 'draft',
    });
    expect(draft.status).toBe(201);
    const draftId = draft.body.data.post.id as string;
    const moved = await createPost(
      { integrationIds: JSON.stringify([normal.id]), content: long, action: 'draft' },
      draftId,
    );
    expect(moved.status).toBe(400);
    expect(moved.body.message).toBe('The text is too long for X: 1000 of 280 characters.');
    const kept = await createPost(
      { integrationIds: JSON.stringify([premium.id]), content: `${long}?`, action: 'draft' },
      draftId,
    );
    expect(kept.status).toBe(200);
  });

  it('the X sandbox refuses more than 280 weighted characters from a normal user, as X does', async () => {
    const { verifier, challenge } = pkcePair();
    const adapter = t.networks.get('x')!.adapter;
    const redirectUri = `${TEST_PUBLIC_URL}/api/auth/x/callback`;
    const url = new URL(
      adapter.authorizeUrl({ redirectUri, state: 's', codeChallenge: challenge }),
    );
    url.searchParams.set('emu_auto', '1');
    url.searchParams.set('emu_account', 'Direct Writer');
    const consent = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    const code = new URL(consent.headers.location as string).searchParams.get('code')!;
    const [account] = await adapter.connect({ code, redirectUri, codeVerifier: verifier });
    expect(account!.textLimit).toBeNull();

    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/x/2/tweets',
      headers: { authorization: `Bearer ${account!.tokens.accessToken}` },
      payload: { text: '日'.repeat(141) },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({
      title: 'Forbidden',
      status: 403,
      detail: 'Tweet needs to be a bit shorter: 282 of 280 weighted characters.',
    });

    // A subscription started later: X's users/me says so and long posts go through.
    await setPremium('direct_writer', true);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/x/2/tweets',
      headers: { authorization: `Bearer ${account!.tokens.accessToken}` },
      payload: { text: '日'.repeat(141) },
    });
    expect(again.statusCode).toBe(201);
  });

  it('reads the subscription again on refresh: the limit follows it', async () => {
    const writer = await connectX('later_subscriber', 'None');
    expect(writer.textLimit).toBeNull();
    await setPremium('later_subscriber', true);
    const refreshed = await owner.call(
      'GET',
      `/api/auth/x/refresh?orgId=${orgId}&integrationId=${writer.id}`,
    );
    expect(refreshed.status).toBe(200);
    expect((await integrations()).find((i) => i.id === writer.id)?.textLimit).toBe(25_000);

    // And back: the subscription ended.
    await setPremium('later_subscriber', false);
    await owner.call('GET', `/api/auth/x/refresh?orgId=${orgId}&integrationId=${writer.id}`);
    expect((await integrations()).find((i) => i.id === writer.id)?.textLimit).toBeNull();
  });
});
