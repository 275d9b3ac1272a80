import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  inboxConversations,
  inboxMessages,
  inboxSyncState,
  integrations,
} from '../../db/schema.js';
import { INBOX_IMPORT_QUEUE, INBOX_READ_QUEUE } from '../../modules/inbox/inbox-queue.js';
import { toStoredAccount } from '../../modules/integrations/integrations.service.js';
import { SANDBOX_PUSH_SERVICE_ACCOUNT } from '../../sandbox/googlebusiness/pubsub.js';
import { createSandboxStore } from '../../sandbox/store.js';
import { createTestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { emuInject, useHarness } from '../../test/network-tests.js';
import { connectThroughSandbox } from '../../test/networks.js';
import type { StoredAccount } from '../types.js';

const TOPIC = 'projects/herald-test/topics/business-reviews';
const SLUG = 'googlebusiness';

/** Herald with review push configured, its import and read jobs running, and the sandbox. */
const t = useHarness(() =>
  createTestApp(
    {
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 15).toString('base64'),
      GOOGLE_BUSINESS_PUBSUB_TOPIC: TOPIC,
      GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT: SANDBOX_PUSH_SERVICE_ACCOUNT,
    },
    // No minute poll runs here: a review that arrives came by its push.
    { jobs: 'all', queues: [INBOX_IMPORT_QUEUE, INBOX_READ_QUEUE] },
  ),
);

const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, SLUG, method, path, payload)).json();

/** Waits for a condition the jobs bring about; fails with its last answer if it never holds. */
async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  let value = await read();
  // Up to a minute: a read that meets another still running is tried again seconds later.
  for (let i = 0; i < 600 && !holds(value); i++) {
    await sleep(100);
    value = await read();
  }
  expect(holds(value)).toBe(true);
  return value;
}

const messagesOf = (integrationId: string, externalId: string) =>
  t.database.db
    .select({ id: inboxMessages.id, text: inboxMessages.text, rating: inboxMessages.rating })
    .from(inboxMessages)
    .innerJoin(inboxConversations, eq(inboxConversations.id, inboxMessages.conversationId))
    .where(
      and(
        eq(inboxConversations.integrationId, integrationId),
        eq(inboxMessages.externalId, externalId),
      ),
    );

type Push = { messageId: string; review: string; status: number | null };
const pushes = async () => ((await emu('GET', 'pubsub/pushes')) as { pushes: Push[] }).pushes;

/** What Pub/Sub posts, signed as the sandbox's Google signs (its key, from its own store). */
async function signedAs(
  claims: Record<string, unknown>,
  key?: KeyObject,
): Promise<{ authorization: string }> {
  const kept = await createSandboxStore(t.database.db, SLUG).get<{
    kid: string;
    privatePem: string;
  }>('gbp_pubsub', 'signing-key');
  const now = Math.floor(Date.now() / 1000);
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const head = b64({ alg: 'RS256', kid: kept!.kid, typ: 'JWT' });
  const body = b64({
    iss: 'https://accounts.google.com',
    aud: `${t.config.apiPublicUrl}/webhooks/googlebusiness`,
    email: SANDBOX_PUSH_SERVICE_ACCOUNT,
    email_verified: true,
    iat: now,
    exp: now + 3600,
    sub: '1080000000000',
    ...claims,
  });
  const signature = sign(
    'RSA-SHA256',
    Buffer.from(`${head}.${body}`),
    key ?? createPrivateKey(kept!.privatePem),
  ).toString('base64url');
  return { authorization: `Bearer ${head}.${body}.${signature}` };
}

const pushBody = (location: string, type = 'NEW_REVIEW', messageId = '7000000001') => ({
  message: {
    data: Buffer.from(
      JSON.stringify({ type, locationName: location, reviewName: `${location}/reviews/x` }),
    ).toString('base64'),
    messageId,
    publishTime: new Date().toISOString(),
    attributes: {},
  },
  subscription: 'projects/herald-test/subscriptions/herald',
});

const postPush = (headers: Record<string, string>, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/googlebusiness',
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(payload),
  });

describe('Google Business Profile reviews pushed through Cloud Pub/Sub', () => {
  let location: StoredAccount;
  let integrationId: string;
  let parent: string;

  it('registers the account’s notification setting when a location connects', async () => {
    const { owner, orgId } = await createOrg(t.app, 'gbp.push@example.com');
    await connectThroughSandbox(t.app, owner, SLUG, orgId, {
      account: 'Push Pia',
      fields: { locations: 'Pia Pastries', group_locations: '' },
    });
    const [row] = await t.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.organizationId, orgId));
    location = toStoredAccount(t.cipher, row!);
    integrationId = row!.id;
    parent = `${location.extra.accountName as string}/locations/${location.externalId}`;
    // The import job subscribes, then reads the location's first reviews.
    await eventually(
      async () =>
        (
          await t.database.db
            .select()
            .from(inboxSyncState)
            .where(eq(inboxSyncState.integrationId, integrationId))
        )[0],
      (state) => Boolean(state?.lastSyncedAt && state.subscribed),
    );
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/sandbox/googlebusiness/v1/${location.extra.accountName as string}/notificationSetting`,
      headers: { authorization: `Bearer ${location.tokens.accessToken}` },
    });
    expect(res.json()).toMatchObject({
      name: `${location.extra.accountName as string}/notificationSetting`,
      pubsubTopic: TOPIC,
      notificationTypes: expect.arrayContaining(['NEW_REVIEW', 'UPDATED_REVIEW']),
    });
    // The repair sweep finds it in place.
    const inbox = t.networks.get(SLUG)!.adapter.inbox!;
    expect(await inbox.checkSubscription!(location)).toBe(true);
  });

  it('reads a new review the moment Google pushes it, its stars a field of their own', async () => {
    const { review } = (await emu('POST', 'reviews', {
      locationId: location.externalId,
      author: 'Quinn Quiche',
      rating: 3,
      comment: 'Lovely tarts, cold coffee.',
    })) as { review: { name: string } };
    // The emulator pushed it, signed; Herald took it at once.
    const pushed = (await pushes()).filter((p) => p.review === review.name);
    expect(pushed).toHaveLength(1);
    expect(pushed[0]!.status).toBe(200);
    // The next poll is half an hour away: the review came by the push's read.
    const [state] = await t.database.db
      .select()
      .from(inboxSyncState)
      .where(eq(inboxSyncState.integrationId, integrationId));
    expect(state!.nextPollAt!.getTime()).toBeGreaterThan(Date.now() + 20 * 60_000);
    const [message] = await eventually(
      () => messagesOf(integrationId, review.name),
      (rows) => rows.length === 1,
    );
    expect(message).toMatchObject({ text: 'Lovely tarts, cold coffee.', rating: 3 });
    const [conversation] = await t.database.db
      .select({ rating: inboxConversations.rating })
      .from(inboxConversations)
      .where(eq(inboxConversations.threadExternalId, review.name));
    expect(conversation!.rating).toBe(3);

    // The customer edits the review: UPDATED_REVIEW, read the same way.
    const reviewId = review.name.split('/').at(-1);
    await emu('POST', 'reviews', {
      locationId: location.externalId,
      reviewId,
      rating: 5,
      comment: 'Lovely tarts, and the coffee is hot now.',
    });
    await eventually(
      () => messagesOf(integrationId, review.name),
      (rows) => rows[0]?.rating === 5,
    );
    expect((await messagesOf(integrationId, review.name))[0]!.text).toBe(
      'Lovely tarts, and the coffee is hot now.',
    );
  });

  it('takes the same push twice without a second message', async () => {
    const { review } = (await emu('POST', 'reviews', {
      locationId: location.externalId,
      author: 'Rita Rye',
      rating: 4,
      comment: 'Good rye.',
    })) as { review: { name: string } };
    await eventually(
      () => messagesOf(integrationId, review.name),
      (rows) => rows.length === 1,
    );
    // Pub/Sub delivers at least once: the same message again, twice.
    const again = pushBody(parent, 'NEW_REVIEW', '7000000042');
    for (let i = 0; i < 2; i++) {
      const res = await postPush(await signedAs({}), again);
      expect(res.statusCode).toBe(200);
    }
    await sleep(500);
    expect(await messagesOf(integrationId, review.name)).toHaveLength(1);
  });

  it('refuses a push without a token, with a forged one, or one for another audience or account', async () => {
    const body = pushBody(parent);
    const unsigned = await postPush({}, body);
    expect(unsigned.statusCode).toBe(401);
    expect(JSON.stringify(unsigned.json())).toMatch(/Authorization: Bearer/);

    const forger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const forged = await postPush(await signedAs({}, forger), body);
    expect(forged.statusCode).toBe(403);
    for (const claims of [
      { aud: 'https://elsewhere.example/push' },
      { email: 'someone-else@herald-sandbox.iam.gserviceaccount.com' },
      { iss: 'https://issuer.example' },
      { exp: Math.floor(Date.now() / 1000) - 3600 },
    ])
      expect((await postPush(await signedAs(claims), body)).statusCode).toBe(403);

    // A push subscription set up with another audience than Herald's: Google's own pushes fail.
    await emu('POST', 'pubsub/subscription', { audience: 'https://not-herald.example/push' });
    try {
      const { review } = (await emu('POST', 'reviews', {
        locationId: location.externalId,
        author: 'Sam Sourdough',
        rating: 2,
        comment: 'Too sour.',
      })) as { review: { name: string } };
      expect((await pushes()).find((p) => p.review === review.name)?.status).toBe(403);
      await sleep(500);
      // Nothing was read for it: the review waits for the next poll.
      expect(await messagesOf(integrationId, review.name)).toHaveLength(0);
    } finally {
      await emu('POST', 'pubsub/subscription', {});
    }
  });

  it('answers a push for a location no one connected, or of another kind, and reads nothing', async () => {
    const stranger = await postPush(
      await signedAs({}),
      pushBody('accounts/1111111111/locations/2222222222'),
    );
    expect(stranger.statusCode).toBe(200);
    const other = await postPush(await signedAs({}), pushBody(parent, 'GOOGLE_UPDATE'));
    expect(other.statusCode).toBe(200);
    const garbled = await postPush(await signedAs({}), { message: { messageId: '1' } });
    expect(garbled.statusCode).toBe(400);
  });

  it('leaves a notification setting of another tool as it is, and says reviews are read on schedule', async () => {
    const owner = location.extra.accountName as string;
    const settingUrl = `/api/sandbox/googlebusiness/v1/${owner}/notificationSetting`;
    const setTopic = (pubsubTopic: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `${settingUrl}?updateMask=pubsubTopic,notificationTypes`,
        headers: {
          authorization: `Bearer ${location.tokens.accessToken}`,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({
          name: `${owner}/notificationSetting`,
          pubsubTopic,
          notificationTypes: ['NEW_REVIEW'],
        }),
      });
    const elsewhere = 'projects/other-tool-1/topics/reviews';
    expect((await setTopic(elsewhere)).statusCode).toBe(200);
    try {
      expect(await t.runtime.inbox.sync.ensureSubscribed(integrationId)).toBe('REFUSED');
      const read = await t.app.inject({
        method: 'GET',
        url: settingUrl,
        headers: { authorization: `Bearer ${location.tokens.accessToken}` },
      });
      expect(read.json().pubsubTopic).toBe(elsewhere);
      const [state] = await t.database.db
        .select()
        .from(inboxSyncState)
        .where(eq(inboxSyncState.integrationId, integrationId));
      expect(state!.subscribed).toBe(false);
      expect(state!.syncError).toContain(`another Pub/Sub topic (${elsewhere})`);
    } finally {
      // Herald's own topic asking for fewer types is completed, not refused.
      expect((await setTopic(TOPIC)).statusCode).toBe(200);
      expect(await t.runtime.inbox.sync.ensureSubscribed(integrationId)).toBe('RESUBSCRIBED');
    }
  });
});
