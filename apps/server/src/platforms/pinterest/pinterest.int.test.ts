import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrations } from '../../db/schema.js';
import { toStoredAccount } from '../../modules/integrations/integrations.service.js';
import { createTestApp, TEST_PUBLIC_URL } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { jpeg, mp4, png, webm } from '../../test/media-fixtures.js';
import { emuInject, expectPlatformError, useHarness } from '../../test/network-tests.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { publishMediaOf } from '../../test/publish-media.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PlatformAdapter, PublishRequest, StoredAccount } from '../types.js';

/** Herald and its Pinterest sandbox (the consent page, API v5 and the video upload storage). */
const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 14).toString('base64') }),
);
let adapter: PlatformAdapter;
beforeAll(() => {
  adapter = t.networks.get('pinterest')!.adapter;
});

const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, 'pinterest', method, path, payload)).json();

interface EmuPin {
  id: string;
  boardId: string;
  title: string | null;
  description: string | null;
  link: string | null;
  altText: string | null;
  mediaType: string;
  images: number;
  hasCover: boolean;
}
const pinsTitled = async (title: string) =>
  ((await emu('GET', 'pins')) as { pins: EmuPin[] }).pins.filter((p) => p.title === title);

const image = async (mimeType: 'image/jpeg' | 'image/png' = 'image/jpeg', altText?: string) => ({
  ...publishMediaOf(mimeType === 'image/png' ? await png(600, 900) : await jpeg(600, 900), {
    kind: 'image',
    mimeType,
    width: 600,
    height: 900,
  }),
  altText: altText ?? null,
});
const video = async (seconds = 5) =>
  publishMediaOf(await mp4({ seconds, width: 320, height: 480 }), {
    kind: 'video',
    mimeType: 'video/mp4',
    width: 320,
    height: 480,
    durationSec: seconds,
  });

let boardId = '';
const request = (
  media: PublishRequest['media'],
  settings: Record<string, unknown> = {},
  text = 'Autumn soup, step by step.',
): PublishRequest => ({
  text,
  media,
  idempotencyKey: `key-${randomBytes(4).toString('hex')}`,
  settings: {
    boardId,
    boardName: 'Ideas',
    title: 'Soup',
    link: 'https://example.com/soup',
    ...settings,
  },
});

async function storedOf(orgId: string): Promise<StoredAccount[]> {
  const rows = await t.database.db
    .select()
    .from(integrations)
    .where(eq(integrations.organizationId, orgId));
  return rows.map((row) => toStoredAccount(t.cipher, row));
}

describe('Pinterest through Herald and its sandbox', () => {
  let account: StoredAccount;
  let owner: Awaited<ReturnType<typeof createOrg>>['owner'];
  let orgId = '';
  let integrationId = '';

  it('connects an account with the authorization code, keeping a continuous refresh token', async () => {
    ({ owner, orgId } = await createOrg(t.app, 'pin.int.one@example.com'));
    const done = await connectThroughSandbox(t.app, owner, 'pinterest', orgId, {
      account: 'Soup Kitchen',
    });
    expect(done).toBe(`${TEST_PUBLIC_URL}/settings?connected=Pinterest`);
    [account] = (await storedOf(orgId)) as [StoredAccount];
    expect(account.externalId).toMatch(/^\d{18}$/);
    expect(account.tokens.accessToken).toMatch(/^pina_/);
    expect(account.tokens.refreshToken).toMatch(/^pinr_/);
    expect(account.tokens.refreshTokenExpiresAt!.getTime()).toBeGreaterThan(
      Date.now() + 59 * 24 * 3600_000,
    );
    expect(account.tokens.scopes).toEqual(
      expect.arrayContaining(['boards:read', 'boards:write', 'pins:write', 'user_accounts:read']),
    );
    const [row] = await t.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.organizationId, orgId));
    integrationId = row!.id;
  });

  it('lists the account’s boards and makes a new one from the composer’s routes', async () => {
    const path = `/api/organizations/${orgId}/integrations/${integrationId}/pinterest/boards`;
    const listed = await owner.call('GET', path);
    expect(listed.status).toBe(200);
    expect(listed.body.data.boards.map((b: { name: string }) => b.name)).toEqual(['Ideas']);
    const made = await owner.call('POST', path, { name: 'Soups', privacy: 'SECRET' });
    expect(made.status).toBe(201);
    expect(made.body.data.board).toMatchObject({ name: 'Soups', privacy: 'SECRET' });
    boardId = made.body.data.board.id;
    const again = await owner.call('GET', path);
    expect(again.body.data.boards.map((b: { name: string }) => b.name)).toEqual(['Ideas', 'Soups']);
    // Pinterest refuses a second board of the same name, in its words.
    const twice = await owner.call('POST', path, { name: 'Soups' });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toMatch(/Pinterest said: You already have a board with this name/);
    const blank = await owner.call('POST', path, { name: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toMatch(/Give the board a name/);
  });

  it('publishes a pin of one image with its title, link and alt text on the chosen board', async () => {
    const result = await publishInOneGo(
      adapter.publishing!,
      account,
      request([await image('image/png', 'A bowl of orange soup')], { title: 'One image' }),
    );
    expect(result.permalink).toBe(`https://www.pinterest.com/pin/${result.externalId}/`);
    const [pin] = await pinsTitled('One image');
    expect(pin).toMatchObject({
      id: result.externalId,
      boardId,
      mediaType: 'image',
      description: 'Autumn soup, step by step.',
      link: 'https://example.com/soup',
      altText: 'A bowl of orange soup',
    });
  });

  it('publishes a carousel of several images', async () => {
    const images = await Promise.all([image(), image('image/png'), image()]);
    const result = await publishInOneGo(
      adapter.publishing!,
      account,
      request(images, { title: 'Carousel' }),
    );
    const [pin] = await pinsTitled('Carousel');
    expect(pin).toMatchObject({ id: result.externalId, mediaType: 'multiple_images', images: 3 });
  });

  it('publishes a video pin: registered, uploaded, processed, then pinned with its cover', async () => {
    await emu('POST', 'scenario', {
      account: 'soup_kitchen',
      knob: 'processing_ms',
      on: true,
      value: 60_000,
    });
    const publishing = adapter.publishing!;
    const req = request([await video(), await image()], { title: 'Video' });
    const state = await publishing.prepare(account, req);
    expect(state.mediaId).toMatch(/^\d+$/);
    // Processing is under way: the pin waits.
    const first = await publishing.check(account, state, req);
    expect(first.status).toBe('pending');
    // A minute later on Pinterest's clock, the video is processed.
    await emu('POST', 'clock', { advance_seconds: 61 });
    expect((await publishing.check(account, state, req)).status).toBe('ready');
    const result = await publishing.finalize(account, req, state);
    const [pin] = await pinsTitled('Video');
    expect(pin).toMatchObject({ id: result.externalId, mediaType: 'video', hasCover: true });

    // Without an image, the cover is the video's first frame.
    await emu('POST', 'scenario', {
      account: 'soup_kitchen',
      knob: 'processing_ms',
      on: true,
      value: 0,
    });
    const bare = await publishInOneGo(
      publishing,
      account,
      request([await video()], { title: 'Bare video' }),
    );
    expect((await pinsTitled('Bare video'))[0]).toMatchObject({
      id: bare.externalId,
      hasCover: false,
    });
    // Left at 0: the videos below are processed at once.
  });

  it('makes one pin when the answer is lost, or Herald crashes between the call and its record', async () => {
    const publishing = adapter.publishing!;
    // The answer is lost: finalize says the outcome is unknown, reconcile finds the pin.
    const lostReq = request([await image()], { title: 'Lost answer' });
    const lostState = await publishing.prepare(account, lostReq);
    await emu('POST', 'scenario', {
      account: 'soup_kitchen',
      knob: 'finalize_timeout',
      on: true,
      value: 1,
    });
    const unknown = await expectPlatformError(publishing.finalize(account, lostReq, lostState));
    expect(unknown.kind).toBe('unknown_outcome');
    const found = await publishing.reconcile!(account, lostReq, lostState);
    const lost = await pinsTitled('Lost answer');
    expect(lost).toHaveLength(1);
    expect(found?.externalId).toBe(lost[0]!.id);

    // A crash after the call: the engine has only the state prepare kept, and asks first.
    const crashReq = request([await image()], { title: 'Crash' });
    const state = await publishing.prepare(account, crashReq);
    await publishing.finalize(account, crashReq, state);
    const again = await publishing.reconcile!(account, crashReq, state);
    expect(await pinsTitled('Crash')).toHaveLength(1);
    expect(again?.externalId).toBe((await pinsTitled('Crash'))[0]!.id);

    // Nothing made yet: reconcile says so, and the retry publishes once.
    const earlyReq = request([await image()], { title: 'Not yet' });
    const early = await publishing.prepare(account, earlyReq);
    expect(await publishing.reconcile!(account, earlyReq, early)).toBeNull();
    expect(await pinsTitled('Not yet')).toHaveLength(0);
  });

  it('passes on Pinterest’s refusals in its own words', async () => {
    const publishing = adapter.publishing!;
    const long = await expectPlatformError(
      publishInOneGo(
        publishing,
        account,
        request([await image()], { title: 'Long' }, 'x'.repeat(801)),
      ),
    );
    expect(long.kind).toBe('bad_request');
    expect(long.message).toMatch(
      /Pinterest said: Invalid request body: description is longer than 800 characters/,
    );

    const six = await Promise.all(Array.from({ length: 6 }, () => image()));
    const carousel = await expectPlatformError(
      publishInOneGo(publishing, account, request(six, { title: 'Six' })),
    );
    expect(carousel.message).toMatch(/items must contain between 2 and 5 images/);

    const textOnly = await expectPlatformError(
      publishInOneGo(publishing, account, request([], { title: 'Text only' })),
    );
    expect(textOnly.message).toMatch(/Pinterest said: Missing request body property: media_source/);

    const gif = publishMediaOf(await jpeg(100, 100), { kind: 'image', mimeType: 'image/gif' });
    const wrongType = await expectPlatformError(
      publishInOneGo(publishing, account, request([gif], { title: 'Gif' })),
    );
    expect(wrongType.message).toMatch(/content_type must be one of image\/jpeg, image\/png/);

    const short = await expectPlatformError(
      publishInOneGo(publishing, account, request([await video(2)], { title: 'Short' }), {
        maxChecks: 50,
        maxWaitMs: 10,
      }),
    );
    expect(short.message).toMatch(/Pinterest could not process this video/);

    const webmVideo = publishMediaOf(await webm({ seconds: 5 }), {
      kind: 'video',
      mimeType: 'video/webm',
    });
    const webmRefused = await expectPlatformError(
      publishInOneGo(publishing, account, request([webmVideo], { title: 'Webm' }), {
        maxChecks: 50,
        maxWaitMs: 10,
      }),
    );
    expect(webmRefused.kind).toBe('bad_request');

    const noBoard = await expectPlatformError(
      publishInOneGo(publishing, account, request([await image()], { boardId: '' })),
    );
    expect(noBoard.message).toMatch(/Choose the Pinterest board/);
    const gone = await expectPlatformError(
      publishInOneGo(
        publishing,
        account,
        request([await image()], { boardId: '123456789012345678' }),
      ),
    );
    expect(gone.message).toMatch(/Pinterest said: Board not found/);
    for (const title of ['Long', 'Six', 'Text only', 'Gif', 'Short', 'Webm'])
      expect(await pinsTitled(title)).toHaveLength(0);
  });

  it('says what Trial access means when Pinterest refuses a pin with code 29', async () => {
    const trial = await createTestApp({
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 15).toString('base64'),
      PINTEREST_UNAUDITED: 'true',
    });
    try {
      const { owner: o, orgId: org } = await createOrg(trial.app, 'pin.int.trial@example.com');
      await connectThroughSandbox(trial.app, o, 'pinterest', org, { account: 'Trial App' });
      const [row] = await trial.database.db
        .select()
        .from(integrations)
        .where(eq(integrations.organizationId, org));
      const stored = toStoredAccount(trial.cipher, row!);
      const boards = await trial.networks.get('pinterest')!.adapter.boards!(stored);
      const refused = await expectPlatformError(
        publishInOneGo(trial.networks.get('pinterest')!.adapter.publishing!, stored, {
          ...request([await image()]),
          settings: { boardId: boards[0]!.id, title: 'Trial' },
        }),
      );
      expect(refused.kind).toBe('bad_request');
      expect(refused.details.code).toBe(29);
      expect(refused.message).toMatch(
        /Trial access.*apply for Standard access.*Pinterest said: Apps with Trial access may not create Pins in production/,
      );
    } finally {
      await trial.close();
    }
  });

  it('renews the tokens, storing the new refresh token encrypted; the old one no longer works', async () => {
    const before = account;
    const res = await owner.call('GET', `/api/auth/pinterest/refresh?orgId=${orgId}`);
    expect(res.status).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.organizationId, orgId));
    const after = toStoredAccount(t.cipher, row!);
    expect(after.tokens.accessToken).not.toBe(before.tokens.accessToken);
    expect(after.tokens.refreshToken).not.toBe(before.tokens.refreshToken);
    expect(after.tokens.refreshToken).toMatch(/^pinr_/);
    // Stored sealed, like every network's tokens.
    expect(row!.refreshTokenEnc).not.toContain(after.tokens.refreshToken);
    // Pinterest refuses the refresh token it replaced: the account would need reconnecting.
    const replayed = await expectPlatformError(adapter.refresh!(before));
    expect(replayed.kind).toBe('reauth');
    expect(replayed.message).toMatch(/Pinterest said: Invalid refresh token.*Reconnect/);
    account = after;
  });

  it('reads impressions, saves, clicks and video views of a pin as metrics', async () => {
    const posted = await publishInOneGo(
      adapter.publishing!,
      account,
      request([await image()], { title: 'Counted' }),
    );
    await emu('POST', 'pins/stats', {
      pinId: posted.externalId,
      stats: { IMPRESSION: 900, SAVE: 12, PIN_CLICK: 30, OUTBOUND_CLICK: 7 },
    });
    const metrics = await adapter.metrics!.postMetrics(account, {
      externalId: posted.externalId,
      publishedAt: new Date(),
    });
    expect(metrics).toMatchObject({
      views: 900,
      saves: 12,
      clicks: 37,
      interactions: 49,
      raw: { IMPRESSION: 900, SAVE: 12, PIN_CLICK: 30, OUTBOUND_CLICK: 7 },
    });
    // An image pin has no video views: left out, not 0.
    expect(metrics).not.toHaveProperty('videoViews');
    // A pin older than Pinterest's 90 days is read over the last 90 only.
    const old = await adapter.metrics!.postMetrics(account, {
      externalId: posted.externalId,
      publishedAt: new Date(Date.now() - 200 * 24 * 3600_000),
    });
    expect(old?.views).toBe(900);
  });

  it('says once that Pinterest has no comments or messages for the inbox', () => {
    const caps = adapter.inbox!.capabilities(account);
    expect(caps).toMatchObject({ dm: false, comments: false, mentions: false });
    expect(caps.limitation).toMatch(/Pinterest does not let apps read messages or comments/);
    expect(adapter.publishing!.listComments).toBeUndefined();
  });
});
