import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrations, networkInstanceApps } from '../../db/schema.js';
import { toStoredAccount } from '../../modules/integrations/integrations.service.js';
import { createTestApp, TEST_PUBLIC_URL } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { jpeg } from '../../test/media-fixtures.js';
import { emuInject, useHarness } from '../../test/network-tests.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { publishMediaOf } from '../../test/publish-media.js';
import { PlatformError } from '../errors.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PlatformAdapter, PublishRequest, StoredAccount } from '../types.js';

/** Herald and its Mastodon sandbox's two servers, connected and published to as in production. */
const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 11).toString('base64') }),
);
let adapter: PlatformAdapter;
beforeAll(() => {
  adapter = t.networks.get('mastodon')!.adapter;
});

const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, 'mastodon', method, path, payload)).json();

/** Moves the sandbox servers' clock forward, as an operator does. */
async function moveClock(seconds: number) {
  const res = await emuInject(t, 'mastodon', 'POST', 'clock', { advance_seconds: seconds });
  expect(res.statusCode, res.body).toBe(200);
}

async function connected(email: string, instance: string, account: string) {
  const { owner, orgId } = await createOrg(t.app, email);
  const done = await connectThroughSandbox(t.app, owner, 'mastodon', orgId, { instance, account });
  expect(done).toBe(`${TEST_PUBLIC_URL}/settings?connected=Mastodon`);
  const [row] = await t.database.db
    .select()
    .from(integrations)
    .where(eq(integrations.organizationId, orgId));
  return { owner, orgId, row: row!, stored: toStoredAccount(t.cipher, row!) };
}

const text = (s: string, media: PublishRequest['media'] = [], settings = {}) => ({
  text: s,
  media,
  idempotencyKey: `key-${s}`,
  settings,
});

describe('Mastodon through Herald and its sandbox servers', () => {
  let ada: StoredAccount;
  let adaUser: string;

  it('connects by server, registering Herald once per server, with each server’s limits', async () => {
    const first = await connected('masto.one@example.com', 'https://Social.Example/', 'Ada');
    ada = first.stored;
    adaUser = 'ada';
    expect(first.row).toMatchObject({
      platformAccountId: expect.stringMatching(/^\d+@social\.example$/),
      username: 'ada@social.example',
      textLimit: 500,
      extra: { instance: 'social.example' },
      accessTokenExpiresAt: null,
    });
    // A second person on the same server reuses Herald's app there; another server gets its own.
    await connected('masto.two@example.com', '@grace@social.example', 'Grace');
    const writer = await connected('masto.three@example.com', 'writers.example', 'Lin');
    expect(writer.row.textLimit).toBe(1000);
    const apps = await t.database.db.select().from(networkInstanceApps);
    expect(apps.map((a) => a.instance).sort()).toEqual(['social.example', 'writers.example']);
    // The client id and secret are kept encrypted.
    for (const app of apps) {
      expect(app.clientSecretEnc).toMatch(/^v1\./);
      expect(app.clientIdEnc).toMatch(/^v1\./);
    }

    // The composer and the publish preflight count against each account's own server.
    const integrationsOf = async (owner: typeof first.owner, orgId: string) =>
      (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data.platforms;
    expect((await integrationsOf(first.owner, first.orgId))[0].textLimit).toBe(500);
    expect((await integrationsOf(writer.owner, writer.orgId))[0].textLimit).toBe(1000);

    // 600 characters: too long on social.example, fine on writers.example.
    const long = 'a'.repeat(600);
    const refused = await publishInOneGo(adapter.publishing!, ada, text(long)).catch((e) => e);
    expect(refused).toBeInstanceOf(PlatformError);
    expect((refused as PlatformError).kind).toBe('bad_request');
    expect((refused as PlatformError).message).toMatch(/500/);
    const fine = await publishInOneGo(adapter.publishing!, writer.stored, text(long));
    expect(fine.externalId).toBeTruthy();
  });

  it('refuses to connect without a server, and with a host that is not one', async () => {
    const { owner, orgId } = await createOrg(t.app, 'masto.none@example.com');
    const errorOf = async (instance?: string) =>
      new URL(
        await connectThroughSandbox(t.app, owner, 'mastodon', orgId, instance ? { instance } : {}),
      ).searchParams.get('connectError');
    expect(await errorOf()).toBe(
      'Type the Mastodon server your account is on, such as mastodon.social.',
    );
    expect(await errorOf('not a server')).toBe(
      'Type the Mastodon server your account is on, such as mastodon.social.',
    );
    // A host the sandbox plays no server on answers as a host without Mastodon would.
    expect(await errorOf('nowhere.example')).toMatch(/^Mastodon said: /);
  });

  it('publishes text with a content warning, images with alt text after processing, a thread and a first comment', async () => {
    const cw = await publishInOneGo(
      adapter.publishing!,
      ada,
      text('Spoilers ahead https://example.com/a/very/long/link/that/counts/as/twenty-three', [], {
        spoilerText: 'Film ending',
        visibility: 'unlisted',
        language: 'en',
      }),
    );
    expect(cw.permalink).toMatch(/\/sandbox\/mastodon\/social\.example\/@ada\//);

    const photo = publishMediaOf(await jpeg(320, 240), { kind: 'image', mimeType: 'image/jpeg' });
    photo.altText = 'A grey test card';
    const withImage = await publishInOneGo(adapter.publishing!, ada, text('Look', [photo]));
    // 202 from the upload, then one 206 before the file was ready.
    expect(withImage.checks).toBeGreaterThan(1);

    const part = await adapter.publishing!.followUp!(ada, {
      kind: 'part',
      postId: withImage.externalId,
      replyTo: withImage.externalId,
      text: 'Part two',
    });
    const comment = await adapter.publishing!.followUp!(ada, {
      kind: 'first_comment',
      postId: withImage.externalId,
      replyTo: withImage.externalId,
      text: 'First comment',
    });
    const { statuses } = await emu('GET', `social.example/statuses?account=${adaUser}`);
    const byId = new Map<string, any>(statuses.map((s: any) => [s.id, s]));
    expect(byId.get(cw.externalId)).toMatchObject({
      spoilerText: 'Film ending',
      visibility: 'unlisted',
      language: 'en',
    });
    expect(byId.get(withImage.externalId).mediaIds).toHaveLength(1);
    expect(byId.get(part.externalId).inReplyToId).toBe(withImage.externalId);
    expect(byId.get(comment.externalId).inReplyToId).toBe(withImage.externalId);
  });

  it('publishes exactly once when the answer is lost between the call and its record', async () => {
    await emu('POST', 'social.example/drop-next-answer', { account: adaUser });
    const request = text('Only once');
    const lost = await publishInOneGo(adapter.publishing!, ada, request).catch((e) => e);
    expect((lost as PlatformError).kind).toBe('unknown_outcome');
    const found = await adapter.publishing!.reconcile!(ada, request, {
      preparedAt: new Date().toISOString(),
    });
    // A retry of finalize after a crash sends the same Idempotency-Key too.
    const again = await adapter.publishing!.finalize(ada, request, {});
    const { statuses } = await emu('GET', `social.example/statuses?account=${adaUser}`);
    const once = statuses.filter((s: any) => s.text === 'Only once');
    expect(once).toHaveLength(1);
    expect(found?.externalId).toBe(once[0].id);
    expect(again.externalId).toBe(once[0].id);
  });

  it('finds a lost status among the recent ones after the server forgot its Idempotency-Key', async () => {
    await emu('POST', 'social.example/drop-next-answer', { account: adaUser });
    const request = text('Found after hours', [], { spoilerText: 'Late' });
    const state = { preparedAt: new Date().toISOString() };
    const lost = await adapter.publishing!.finalize(ada, request, state).catch((e) => e);
    expect((lost as PlatformError).kind).toBe('unknown_outcome');
    // Two hours on: the server no longer knows the key, so sending it again would post twice.
    await moveClock(2 * 3600);
    const found = await adapter.publishing!.reconcile!(ada, request, state);
    const { statuses } = await emu('GET', `social.example/statuses?account=${adaUser}`);
    const made = statuses.filter((s: any) => s.text === 'Found after hours');
    expect(made).toHaveLength(1);
    expect(found?.externalId).toBe(made[0].id);
    // The same words without the content warning are another status, not this one.
    const other = await adapter.publishing!.reconcile!(ada, text('Found after hours'), state);
    expect(other?.externalId).not.toBe(made[0].id);
  });

  it('says it cannot tell, instead of posting again, when the account posted too much since', async () => {
    await emu('POST', 'social.example/drop-next-answer', { account: adaUser });
    const request = text('Buried under newer posts');
    const state = { preparedAt: new Date().toISOString() };
    await adapter.publishing!.finalize(ada, request, state).catch((e) => e);
    await moveClock(2 * 3600);
    for (let i = 0; i < 40; i++)
      await adapter.publishing!.finalize(ada, text(`Newer post ${i}`), {});
    const unsure = await adapter.publishing!.reconcile!(ada, request, state).catch((e) => e);
    expect(unsure).toBeInstanceOf(PlatformError);
    expect((unsure as PlatformError).kind).toBe('unknown_outcome');
    const { statuses } = await emu('GET', `social.example/statuses?account=${adaUser}`);
    expect(statuses.filter((s: any) => s.text === 'Buried under newer posts')).toHaveLength(1);
  });

  it('answers that a lost post was not made when the account has nothing like it', async () => {
    const lin = await connected('masto.four@example.com', 'writers.example', 'Noor');
    const request = text('Never arrived');
    const none = await adapter.publishing!.reconcile!(lin.stored, request, {
      preparedAt: new Date().toISOString(),
    });
    expect(none).toBeNull();
  });

  it('reads replies, answers one, and reads the counts', async () => {
    const post = await publishInOneGo(adapter.publishing!, ada, text('Talk to me'));
    await emu('POST', 'social.example/reply', {
      account: adaUser,
      statusId: post.externalId,
      text: 'Hello from afar',
    });
    const { comments } = await adapter.publishing!.listComments!(ada, post.externalId, {
      limit: 20,
    });
    expect(comments).toMatchObject([{ message: 'Hello from afar', isOwn: false }]);
    const answer = await adapter.publishing!.reply!(
      ada,
      { externalId: post.externalId, commentId: comments[0]!.id },
      'Hello back',
    );
    expect(answer).toMatchObject({ message: 'Hello back', isOwn: true });
    const again = await adapter.publishing!.listComments!(ada, post.externalId, { limit: 20 });
    expect(again.comments[0]!.replies.map((r) => r.message)).toEqual(['Hello back']);

    const metrics = await adapter.metrics!.postMetrics(ada, {
      externalId: post.externalId,
      publishedAt: new Date(),
    });
    expect(metrics).toMatchObject({ likes: 2, shares: 1, comments: 1, interactions: 4 });

    // A quote is a share too, next to the boost.
    await emu('POST', 'social.example/quote', { account: adaUser, statusId: post.externalId });
    const quoted = await adapter.metrics!.postMetrics(ada, {
      externalId: post.externalId,
      publishedAt: new Date(),
    });
    expect(quoted).toMatchObject({ likes: 2, shares: 2, comments: 1, interactions: 5 });
    expect(quoted!.raw).toMatchObject({ reblogs_count: 1, quotes_count: 1 });
  });

  it('reads a quote of the account’s status into the inbox, naming the status it quotes', async () => {
    const post = await publishInOneGo(adapter.publishing!, ada, text('Quote me on this'));
    const before = await adapter.inbox!.poll(ada, null);
    await emu('POST', 'social.example/quote', {
      account: adaUser,
      statusId: post.externalId,
      text: 'Exactly right',
    });
    const after = await adapter.inbox!.poll(ada, before.cursor);
    expect(after.events).toHaveLength(1);
    expect(after.events[0]).toMatchObject({
      kind: 'mention',
      direction: 'in',
      text: 'Exactly right',
      author: { username: 'fediverse_friend@social.example' },
      rootPost: { externalId: post.externalId, text: 'Quote me on this' },
    });
  });

  it('surfaces refusals in Mastodon’s words, and a refused token as a reconnect', async () => {
    const bad = await adapter
      .publishing!.finalize(ada, text('With a file that does not exist'), { mediaIds: ['1'] })
      .catch((e) => e);
    expect((bad as PlatformError).kind).toBe('bad_request');
    expect((bad as PlatformError).message).toBe(
      'Mastodon said: Validation failed: Media attachments are invalid',
    );
    const revoked = { ...ada, tokens: { ...ada.tokens, accessToken: 'not-a-token' } };
    const reauth = await adapter.metrics!.accountMetrics(revoked).catch((e) => e);
    expect((reauth as PlatformError).kind).toBe('reauth');
    expect((reauth as PlatformError).message).toBe('Mastodon said: The access token is invalid');
  });

  it('reads mentions and direct conversations into the inbox, and answers both', async () => {
    const inbox = adapter.inbox!;
    expect(inbox.capabilities(ada)).toMatchObject({
      dm: true,
      mentions: true,
      like: true,
      replyMaxLength: 500,
    });
    await emu('POST', 'social.example/mention', { account: adaUser, text: 'what do you think?' });
    await emu('POST', 'social.example/mention', {
      account: adaUser,
      text: 'just between us',
      direct: true,
    });
    const first = await inbox.poll(ada, null);
    const mention = first.events.find((e) => e.kind === 'mention')!;
    const dm = first.events.find((e) => e.kind === 'dm')!;
    expect(mention).toMatchObject({
      direction: 'in',
      text: '@ada what do you think?',
      author: { username: 'fediverse_friend@social.example' },
    });
    expect(dm).toMatchObject({ direction: 'in', text: '@ada just between us' });
    // The next poll reads mentions since the newest one seen.
    const next = await inbox.poll(ada, first.cursor);
    expect(next.events.filter((e) => e.kind === 'mention')).toEqual([]);

    const thread = (kind: 'mention' | 'dm', threadExternalId: string) => ({
      kind,
      threadExternalId,
      participantExternalId: mention.author.externalId,
      rootPostExternalId: null,
    });
    await inbox.replyToComment!(
      ada,
      thread('mention', mention.threadExternalId),
      mention.externalId,
      'Thanks!',
    );
    // A like is a favourite, counted once however often it is sent, and taken back.
    await inbox.like!(ada, mention.externalId, true);
    await inbox.like!(ada, mention.externalId, true);
    const liked = await adapter.metrics!.postMetrics(ada, {
      externalId: mention.externalId,
      publishedAt: new Date(),
    });
    expect(liked!.likes).toBe(1);
    await inbox.like!(ada, mention.externalId, false);
    const unliked = await adapter.metrics!.postMetrics(ada, {
      externalId: mention.externalId,
      publishedAt: new Date(),
    });
    expect(unliked!.likes).toBe(0);

    await inbox.sendDm!(ada, thread('dm', dm.threadExternalId), 'Sure, talk soon');
    const { statuses } = await emu('GET', `social.example/statuses?account=${adaUser}`);
    expect(statuses.find((s: any) => s.text === 'Thanks!').inReplyToId).toBe(mention.externalId);
    expect(statuses.find((s: any) => s.text === '@fediverse_friend Sure, talk soon')).toMatchObject(
      { visibility: 'direct', inReplyToId: dm.externalId },
    );
  });
});
