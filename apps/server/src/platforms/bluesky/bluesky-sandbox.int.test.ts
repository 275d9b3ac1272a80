import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrations } from '../../db/schema.js';
import { toStoredAccount } from '../../modules/integrations/integrations.service.js';
import { createTestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { emuInject, useHarness } from '../../test/network-tests.js';
import { testMedia } from '../../test/publish-media.js';
import { PlatformError } from '../errors.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PublishRequest, StoredAccount } from '../types.js';

/**
 * Herald and its Bluesky sandbox, for what the reference PDS cannot answer without an AppView, a
 * chat service or a video service (bluesky.int.test.ts runs the rest against both): connecting
 * through Herald's route, comments, the inbox, direct messages, counts and videos.
 */
const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 12).toString('base64') }),
);

const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, 'bluesky', method, path, payload)).json();

const request = (text: string, media: PublishRequest['media'] = []): PublishRequest => ({
  text,
  media,
  idempotencyKey: `key-${text}`,
});

async function connect(email: string, identifier: string, appPassword: string) {
  const { owner, orgId } = await createOrg(t.app, email);
  const res = await owner.call(
    'POST',
    `/api/organizations/${orgId}/integrations/bluesky/app-password`,
    { identifier, appPassword },
  );
  return { owner, orgId, res };
}

async function storedOf(orgId: string): Promise<StoredAccount> {
  const [row] = await t.database.db
    .select()
    .from(integrations)
    .where(eq(integrations.organizationId, orgId));
  return toStoredAccount(t.cipher, row!);
}

describe('Bluesky through Herald and its sandbox', () => {
  let ada: StoredAccount;

  it('connects with a handle and an app password through Herald, keeping the tokens encrypted and not the password', async () => {
    const { orgId, res } = await connect(
      'bsky.one@example.com',
      '@Ada.bsky.sandbox',
      'abcd-efgh-ijkl-mnop',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.platforms).toHaveLength(1);
    expect(res.body.data.platforms[0]).toMatchObject({
      platform: { name: 'Bluesky' },
      platformAccountId: expect.stringMatching(/^did:plc:/),
      metadata: { username: 'ada.bsky.sandbox' },
      sandbox: true,
    });
    const [row] = await t.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.organizationId, orgId));
    expect(row!.accessTokenEnc).toMatch(/^v1\./);
    expect(row!.refreshTokenEnc).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('abcd-efgh-ijkl-mnop');
    ada = await storedOf(orgId);

    // Someone else cannot sign in as that handle without its app password, in Bluesky's words.
    const other = await connect('bsky.two@example.com', 'ada.bsky.sandbox', 'zzzz-zzzz-zzzz-zzzz');
    expect(other.res.status).toBe(400);
    expect(other.res.body.message).toBe(
      'Bluesky refused the sign-in (Invalid identifier or password). Check the handle and the app password, then connect again.',
    );
    const blank = await connect('bsky.three@example.com', '', '');
    expect(blank.res.status).toBe(400);
  });

  it('reads replies as comments, mentions and replies into the inbox, and counts', async () => {
    const adapter = t.networks.get('bluesky')!.adapter;
    const post = await publishInOneGo(adapter.publishing!, ada, request('Tell me what you think'));
    const reply = await emu('POST', 'reply', { uri: post.externalId, text: 'Love it' });
    expect(reply.uri).toMatch(/^at:\/\//);

    const { comments } = await adapter.publishing!.listComments!(ada, post.externalId, {
      limit: 20,
    });
    expect(comments.map((c) => [c.message, c.isOwn])).toEqual([['Love it', false]]);
    const answer = await adapter.publishing!.reply!(
      ada,
      { externalId: post.externalId, commentId: comments[0]!.id },
      'Thank you!',
    );
    const again = await adapter.publishing!.listComments!(ada, post.externalId, { limit: 20 });
    expect(again.comments[0]!.replies.map((r) => [r.id, r.message, r.isOwn])).toEqual([
      [answer.id, 'Thank you!', true],
    ]);

    await emu('POST', 'mention', { did: ada.externalId, text: 'have you seen this?' });
    const polled = await adapter.inbox!.poll(ada, null);
    expect(polled.events.map((e) => [e.kind, e.text])).toEqual(
      expect.arrayContaining([
        ['mention', `@ada.bsky.sandbox have you seen this?`],
        ['mention', 'Love it'],
      ]),
    );
    const nothingNew = await adapter.inbox!.poll(ada, polled.cursor);
    expect(nothingNew.events).toEqual([]);
    // Without direct-message access, the inbox says so and sends none.
    expect(adapter.inbox!.capabilities(ada).dm).toBe(false);

    const metrics = await adapter.metrics!.postMetrics(ada, {
      externalId: post.externalId,
      publishedAt: new Date(),
    });
    // One direct reply (the answer replies to it); a repost and a quote are both shares.
    expect(metrics).toMatchObject({ likes: 3, shares: 2, comments: 1, interactions: 6 });
    const account = await adapter.metrics!.accountMetrics(ada);
    expect(account).toMatchObject({ followers: 42 });
  });

  it('reads and answers direct messages with an app password allowed them, and says why not without', async () => {
    const adapter = t.networks.get('bluesky')!.adapter;
    const { orgId, res } = await connect(
      'bsky.dm@example.com',
      'dee.bsky.sandbox',
      'priv-abcd-efgh-ijkl',
    );
    expect(res.status).toBe(200);
    const dee = await storedOf(orgId);
    expect(dee.extra.dmAccess).toBe(true);
    const { convoId } = await emu('POST', 'dm', { did: dee.externalId, text: 'Hi Dee' });
    const polled = await adapter.inbox!.poll(dee, null);
    const dm = polled.events.find((e) => e.kind === 'dm')!;
    expect(dm).toMatchObject({ text: 'Hi Dee', threadExternalId: convoId, direction: 'in' });
    const sent = await adapter.inbox!.sendDm!(
      dee,
      { threadExternalId: convoId } as never,
      'Hello back',
    );
    expect(sent.externalId).toBeTruthy();

    // An app password without that access is refused by the chat service, in Herald's words.
    const refused = await adapter.inbox!.sendDm!(
      { ...ada, extra: { ...ada.extra, dmAccess: true } },
      { threadExternalId: convoId } as never,
      'Hi',
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PlatformError);
    expect((refused as PlatformError).message).toMatch(
      /^Bluesky refused direct messages to this app password/,
    );
  });

  it('publishes a video through the video service, waiting for it to be processed', async () => {
    const adapter = t.networks.get('bluesky')!.adapter;
    const clip = testMedia('video');
    clip.altText = 'A short clip';
    const published = await publishInOneGo(adapter.publishing!, ada, request('A clip', [clip]));
    expect(published.checks).toBeGreaterThan(1);
    const { posts } = await emu('GET', `posts?did=${encodeURIComponent(ada.externalId)}`);
    const post = (posts as Array<{ uri: string; value: Record<string, unknown> }>).find(
      (p) => p.uri === published.externalId,
    )!;
    expect(post.value.embed).toMatchObject({
      $type: 'app.bsky.embed.video',
      alt: 'A short clip',
      aspectRatio: { width: 720, height: 1280 },
      video: { $type: 'blob', mimeType: 'video/mp4' },
    });
  });

  it('renews an expired session and asks for a reconnect when the refresh token is gone too', async () => {
    const adapter = t.networks.get('bluesky')!.adapter;
    await emu('POST', 'expire-sessions', { did: ada.externalId });
    const expired = await publishInOneGo(adapter.publishing!, ada, request('Expired')).catch(
      (e: unknown) => e,
    );
    expect((expired as PlatformError).kind).toBe('reauth');
    const renewed = await adapter.refresh!(ada);
    ada = { ...ada, tokens: renewed };
    expect((await publishInOneGo(adapter.publishing!, ada, request('Renewed'))).externalId).toMatch(
      /^at:\/\//,
    );
    await emu('POST', 'expire-sessions', { did: ada.externalId, refresh: true });
    const gone = await adapter.refresh!(ada).catch((e: unknown) => e);
    expect((gone as PlatformError).kind).toBe('reauth');
    expect((gone as PlatformError).message).toMatch(/ExpiredToken/);
  });
});
