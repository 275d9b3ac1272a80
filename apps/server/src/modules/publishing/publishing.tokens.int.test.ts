import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations } from '../../db/schema.js';
import { refreshDueTokens } from '../../jobs/tokens-refresh.job.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { PlatformError } from '../../platforms/errors.js';
import type { PublishingAdapter } from '../../platforms/types.js';
import { refreshAccount } from '../integrations/integrations.service.js';
import { PUBLISH_QUEUE, type PublishQueue } from './publish-queue.js';
import { Publisher } from './publisher.js';

/**
 * The publishing engine with tokens that die between refreshes: a publication refreshes
 * once and goes on, in every phase; and refreshers of one account never race each other into
 * using a refresh token X has already rotated away.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE] });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** A new organization with one X sandbox account named `account`. */
async function withXAccount(email: string, account: string) {
  const { owner, orgId } = await createOrg(t.app, email, `${account} Co`);
  const connected = await connectThroughSandbox(t.app, owner, 'x', orgId, { account });
  expect(connected).toContain('connected');
  const supported = await owner.call('GET', '/api/platforms/supported');
  const xId: string = supported.body.data.platforms.find(
    (p: { name: string }) => p.name === 'X',
  ).id;
  const [row] = await t.database.db
    .select()
    .from(integrations)
    .where(eq(integrations.organizationId, orgId));
  return { owner, orgId, xId, row: row! };
}

async function knob(owner: Actor, account: string, name: string, on = true) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/sandbox/x/_emu/scenario',
    headers: { cookie: owner.jar.header() },
    payload: { account, knob: name, on },
  });
  expect(res.statusCode).toBe(200);
}

/** Whether X accepts this access token (`GET /2/users/me`). */
async function xAccepts(accessToken: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/sandbox/x/2/users/me',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return res.statusCode === 200;
}

const rowOf = async (id: string) =>
  (await t.database.db.select().from(integrations).where(eq(integrations.id, id)))[0]!;

describe('a token that expired before the refresh job ran', () => {
  it('a text-only post refreshes once at the visible call and is published, once', async () => {
    const account = 'expired_text';
    const { owner, orgId, xId, row } = await withXAccount('expired@tokens.test', account);
    const body = await multipart({
      platformIds: JSON.stringify([xId]),
      content: 'Published with a fresh token',
      action: 'draft',
    });
    const created = await send(t.app, owner.jar, {
      method: 'POST',
      url: `/api/organizations/${orgId}/post`,
      headers: { ...body.headers, origin: TEST_PUBLIC_URL },
      payload: body.payload,
    });
    expect(created.statusCode).toBe(201);
    const postId = created.json().data.post.id as string;
    // Every token X issued before now is refused with a 401 (the job has not run yet).
    await knob(owner, account, 'token_expired');
    const res = await owner.call('PATCH', `/api/organizations/${orgId}/post/${postId}/publish`, {
      platforms: ['X'],
    });
    expect(res.body.results.X).toEqual({ status: 'success', error: null });
    const onX = await t.app.inject({
      method: 'GET',
      url: '/api/sandbox/x/_emu/posts',
      headers: { cookie: owner.jar.header() },
    });
    const posts = (onX.json() as { posts: Array<{ text: string }> }).posts;
    expect(posts.filter((p) => p.text === 'Published with a fresh token')).toHaveLength(1);
    const after = await rowOf(row.id);
    expect(after.status).toBe('CONNECTED');
    expect(after.accessTokenEnc).not.toBe(row.accessTokenEnc);
  }, 40_000);
});

describe('a token refused while checking the media', () => {
  it('refreshes once and goes on to publish', async () => {
    const { owner, orgId, xId, row } = await withXAccount('check@tokens.test', 'expired_check');
    const real = t.networks.get('x')!;
    const realPublishing = real.adapter.publishing!;
    let checks = 0;
    // The check of what prepare made meets X's 401 once, as when the token expires meanwhile.
    const publishing: PublishingAdapter = {
      ...realPublishing,
      // This check calls the network (as for media), so the steps run as they do for media.
      preparesLocally: () => false,
      async check(account, state) {
        checks += 1;
        if (checks === 1)
          throw new PlatformError('reauth', 'X said: Unauthorized', { status: 401 });
        return realPublishing.check(account, state);
      },
    };
    const networks = new Map(t.networks);
    networks.set('x', { ...real, adapter: { ...real.adapter, publishing } });
    const publisher = new Publisher({
      db: t.database.db,
      networks,
      media: t.runtime.media,
      cipher: t.cipher,
      queue: { retryAt: async () => {} } as unknown as PublishQueue,
      log: t.app.log,
    });
    const body = await multipart({
      platformIds: JSON.stringify([xId]),
      content: 'Checked with a fresh token',
      action: 'draft',
    });
    const created = await send(t.app, owner.jar, {
      method: 'POST',
      url: `/api/organizations/${orgId}/post`,
      headers: { ...body.headers, origin: TEST_PUBLIC_URL },
      payload: body.payload,
    });
    const post = created.json().data.post as { id: string; platformPosts: Array<{ id: string }> };
    await t.database.db.execute(sql`update posts set status = 'publishing' where id = ${post.id}`);
    expect(await publisher.run(post.platformPosts[0]!.id)).toBe('PUBLISHED');
    expect(checks).toBe(2);
    const after = await rowOf(row.id);
    expect(after.status).toBe('CONNECTED');
    expect(after.accessTokenEnc).not.toBe(row.accessTokenEnc);
  }, 40_000);
});

describe('refreshing one account from two places at once', () => {
  it('both callers end with a working token and the account stays connected', async () => {
    const { row } = await withXAccount('race@tokens.test', 'rotating_race');
    const x = t.networks.get('x')!;
    const deps = { db: t.database.db, cipher: t.cipher };
    // Both start from the same row: the same refresh token, which X rotates on first use.
    const [first, second] = await Promise.all([
      refreshAccount(deps, x, row),
      refreshAccount(deps, x, row),
    ]);
    expect(first.status).toBe('CONNECTED');
    expect(second.status).toBe('CONNECTED');
    const stored = await rowOf(row.id);
    expect(stored.status).toBe('CONNECTED');
    expect(stored.lastError).toBeNull();
    // One refresh happened; the second caller took its result instead of spending the old token.
    expect(second.accessTokenEnc).toBe(first.accessTokenEnc);
    expect(stored.accessTokenEnc).toBe(first.accessTokenEnc);
    expect(await xAccepts(t.cipher.decrypt(stored.accessTokenEnc!))).toBe(true);
    // And the kept refresh token is the one X will take next time.
    const later = await refreshAccount(deps, x, stored);
    expect(later.status).toBe('CONNECTED');
  });

  it('the refresh job, the Refresh button and a publication share the same lock', async () => {
    const { owner, orgId, row } = await withXAccount('three@tokens.test', 'rotating_three');
    const x = t.networks.get('x')!;
    // Make the account due for the job: its token expires in a minute.
    await t.database.db
      .update(integrations)
      .set({ accessTokenExpiresAt: new Date(Date.now() + 60_000) })
      .where(eq(integrations.id, row.id));
    const due = await rowOf(row.id);
    const [job, button, publisher] = await Promise.all([
      refreshDueTokens({
        db: t.database.db,
        cipher: t.cipher,
        networks: t.networks,
        log: t.app.log,
      }),
      owner.call('GET', `/api/auth/x/refresh?orgId=${orgId}`),
      refreshAccount({ db: t.database.db, cipher: t.cipher }, x, due),
    ]);
    expect(job.failed).toBe(0);
    expect(button.status).toBe(200);
    expect(publisher.status).toBe('CONNECTED');
    const stored = await rowOf(row.id);
    expect(stored.status).toBe('CONNECTED');
    expect(await xAccepts(t.cipher.decrypt(stored.accessTokenEnc!))).toBe(true);
    expect(await xAccepts(t.cipher.decrypt(publisher.accessTokenEnc!))).toBe(true);
  });
});
