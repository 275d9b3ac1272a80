import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, posts, postTargets } from '../../db/schema.js';
import { TokenCipher } from '../../lib/token-crypto.js';
import type { PublishingAdapter } from '../../platforms/types.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import type { PublishQueue } from './publish-queue.js';
import { Publisher } from './publisher.js';
import { publishNow } from './publishing.service.js';

/**
 * Tokens this server cannot read (sealed with a key it does not have): never a 500 nor a
 * publication left "Publishing…" — the user is told to reconnect the account, the target fails
 * with that sentence, and the log says why.
 */

let t: TestApp;
const logLines: Array<Record<string, unknown>> = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean))
      logLines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logger: { level: 'info', stream } });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** Sealed by a server with another key. */
const foreign = new TokenCipher(randomBytes(32));

async function withXAccount(email: string, account: string) {
  const { owner, orgId } = await createOrg(t.app, email, `${account} Co`);
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId, { account })).toContain('connected');
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

/** The account's tokens as another server with another key sealed them. */
async function sealElsewhere(id: string, withSecrets = false) {
  await t.database.db
    .update(integrations)
    .set({
      accessTokenEnc: foreign.encrypt('access-from-elsewhere'),
      refreshTokenEnc: foreign.encrypt('refresh-from-elsewhere'),
      ...(withSecrets ? { secretsEnc: foreign.encrypt('{"pageToken":"elsewhere"}') } : {}),
    })
    .where(eq(integrations.id, id));
}

async function draftTo(owner: Actor, orgId: string, xId: string, content: string) {
  const body = await multipart({ platformIds: JSON.stringify([xId]), content, action: 'draft' });
  const created = await send(t.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(created.statusCode).toBe(201);
  return created.json().data.post as { id: string; platformPosts: Array<{ id: string }> };
}

const targetOf = async (id: string) =>
  (await t.database.db.select().from(postTargets).where(eq(postTargets.id, id)))[0]!;
const rowOf = async (id: string) =>
  (await t.database.db.select().from(integrations).where(eq(integrations.id, id)))[0]!;

describe('an account whose tokens this server cannot read', () => {
  it('fails the publication with a reconnect sentence, logged, and marks the account', async () => {
    const { owner, orgId, xId, row } = await withXAccount('worker@unreadable.test', 'unread_w');
    const post = await draftTo(owner, orgId, xId, 'Sealed with another key');
    await sealElsewhere(row.id);

    // The API's "publish now" and the worker run the same engine.
    const res = await owner.call('PATCH', `/api/organizations/${orgId}/post/${post.id}/publish`, {
      platforms: ['X'],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.X.status).toBe('failed');
    const target = await targetOf(post.platformPosts[0]!.id);
    expect(target.status).toBe('FAILED');
    expect(target.error).toMatch(
      /^The X account .+ needs to be reconnected: Herald cannot read its stored access .+ Reconnect it in Settings, then publish again\.$/,
    );
    expect(res.body.results.X.error).toBe(target.error);
    const account = await rowOf(row.id);
    expect(account.status).toBe('REFRESH_FAILED');
    expect(account.lastError).toMatch(/Reconnect the account in Settings\.$/);
    expect(
      logLines.some(
        (l) =>
          l.msg === 'publication failed' && l.targetId === target.id && l.reason === target.error,
      ),
    ).toBe(true);
  }, 40_000);

  it('fails a run of the worker the same way, instead of leaving the target PREPARING', async () => {
    const { owner, orgId, xId, row } = await withXAccount('job@unreadable.test', 'unread_j');
    const post = await draftTo(owner, orgId, xId, 'Due while sealed with another key');
    const targetId = post.platformPosts[0]!.id;
    // As the scheduler leaves it when it is due: the job runs the target.
    await t.database.db
      .update(postTargets)
      .set({ dueAt: new Date() })
      .where(eq(postTargets.id, targetId));
    await t.database.db.update(posts).set({ status: 'scheduled' }).where(eq(posts.id, post.id));
    await sealElsewhere(row.id);
    expect(await t.publisher.run(targetId)).toBe('FAILED');
    const target = await targetOf(targetId);
    expect(target.status).toBe('FAILED');
    expect(target.error).toMatch(/needs to be reconnected: Herald cannot read its stored access/);
    expect(logLines.some((l) => l.msg === 'publication failed' && l.targetId === targetId)).toBe(
      true,
    );
  }, 40_000);

  it('answers the Refresh button with 409 and the reconnect sentence, not a 500', async () => {
    const { owner, orgId, row } = await withXAccount('refresh@unreadable.test', 'unread_r');
    await sealElsewhere(row.id);
    const res = await owner.call('GET', `/api/auth/x/refresh?orgId=${orgId}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 'error', code: 'CONFLICT' });
    expect(res.body.message).toMatch(
      /^Failed to refresh token for X\. Herald cannot read the stored access of the account @\S+: .+ Reconnect the account in Settings\.$/,
    );
    const listed = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
    expect(listed.body.data.platforms[0]).toMatchObject({ status: 'REFRESH_FAILED' });
  }, 40_000);

  it('is cured by reconnecting it', async () => {
    const { owner, orgId, row } = await withXAccount('reconnect@unreadable.test', 'unread_c');
    await sealElsewhere(row.id, true);
    expect(
      await connectThroughSandbox(t.app, owner, 'x', orgId, { account: 'unread_c' }),
    ).toContain('connected');
    const after = await rowOf(row.id);
    expect(after.status).toBe('CONNECTED');
    expect(toStoredAccount(t.cipher, after).tokens.accessToken).not.toBe('');
  }, 40_000);
});

describe('an unexpected error while preparing', () => {
  it('puts the target back with a sentence and a log line, never leaving it PREPARING', async () => {
    const { owner, orgId, xId } = await withXAccount('prepare@unreadable.test', 'unread_p');
    const real = t.networks.get('x')!;
    const publishing: PublishingAdapter = {
      ...real.adapter.publishing!,
      preparesLocally: () => false,
      prepare: () =>
        Promise.reject(new TypeError("Cannot read properties of undefined (reading 'id')")),
    };
    const networks = new Map(t.networks);
    networks.set('x', { ...real, adapter: { ...real.adapter, publishing } });
    const retries: string[] = [];
    const publisher = new Publisher({
      db: t.database.db,
      networks,
      media: t.runtime.media,
      cipher: t.cipher,
      queue: {
        retryAt: async (id: string) => {
          retries.push(id);
        },
      } as unknown as PublishQueue,
      log: t.app.log,
    });
    const post = await draftTo(owner, orgId, xId, 'Prepared by a broken adapter');
    await t.database.db
      .update(postTargets)
      .set({ dueAt: new Date() })
      .where(eq(postTargets.id, post.platformPosts[0]!.id));
    await publishNow(
      {
        db: t.database.db,
        publisher,
        queue: { retryAt: async () => {} } as unknown as PublishQueue,
        now: () => new Date(),
        log: t.app.log,
      },
      orgId,
      post.id,
      ['X'],
    );
    const target = await targetOf(post.platformPosts[0]!.id);
    expect(target.status).toBe('QUEUED');
    expect(target.error).toBe(
      "Herald failed while preparing this post for X; the error is in the server's log.",
    );
    expect(retries).toEqual([target.id]);
    const logged = logLines.find(
      (l) => l.msg === 'preparing a publication failed unexpectedly' && l.targetId === target.id,
    );
    expect((logged?.err as { message?: string } | undefined)?.message).toContain(
      'Cannot read properties of undefined',
    );
  }, 40_000);
});
