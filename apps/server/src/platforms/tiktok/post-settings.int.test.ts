import { describe, expect, it } from 'vitest';
import { testMedia } from '../../test/publish-media.js';
import { startSandboxHarness } from '../../test/sandbox-harness.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PublishRequest, StoredAccount } from '../types.js';
import { createTikTokAdapter } from './adapter.js';
import { network } from './index.js';
import { TIKTOK_TIMING, type TikTokTiming } from './limits.js';

/** docs/networks.md#tiktok-conformance: the settings the user chose reach TikTok as chosen. */
const h = useHarness(() => startSandboxHarness(network));
const fast: TikTokTiming = {
  ...TIKTOK_TIMING,
  initTimeoutMs: 400,
  statusFirstDelayMs: 50,
  statusMaxDelayMs: 200,
  statusBudgetMs: 3000,
  chunkBytes: 5 * 1024 * 1024,
};
const adapter = () => createTikTokAdapter(h.settings, fast);

async function connect(name: string): Promise<StoredAccount> {
  const { account } = await h.connectAs(name);
  return { externalId: account.externalId, tokens: account.tokens, extra: {}, secrets: {} };
}

const request = (
  media: PublishRequest['media'],
  settings: Record<string, unknown>,
): PublishRequest => ({
  text: 'Chosen, not defaulted',
  media,
  idempotencyKey: `k-${Math.random()}`,
  settings,
});

async function sandboxCall(token: string, path: string, body: object) {
  const res = await fetch(`${h.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { error: { code: string } } };
}

describe('TikTok: the creator info the composer shows', () => {
  it('names the creator and says what they allow, SELF_ONLY only while unaudited', async () => {
    const account = await connect('Nick Name');
    await h.setKnob('nick_name', 'interactions_off', true);
    await h.setKnob('nick_name', 'creator_private', true);
    const info = await adapter().creatorInfo!(account);
    expect(info).toMatchObject({
      nickname: 'Nick Name',
      username: 'nick_name',
      privacyLevelOptions: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
      commentDisabled: true,
      duetDisabled: true,
      stitchDisabled: true,
      maxVideoPostDurationSec: 600,
      unaudited: false,
    });
    const unaudited = createTikTokAdapter({ ...h.settings, unaudited: true }, fast);
    expect((await unaudited.creatorInfo!(account)).privacyLevelOptions).toEqual(['SELF_ONLY']);
  });
});

describe('TikTok: post_info as the user chose it', () => {
  it('sends the chosen privacy, interactions and disclosure in the video init', async () => {
    const account = await connect('Brand Owner');
    const video = testMedia('video', { size: 6 * 1024 * 1024, durationSec: 20 });
    const since = (await h.calls()).length;
    await publishInOneGo(
      adapter().publishing!,
      account,
      request([video], {
        privacyLevel: 'MUTUAL_FOLLOW_FRIENDS',
        allowComments: false,
        allowDuet: true,
        allowStitch: false,
        commercial: true,
        yourBrand: true,
        brandedContent: true,
      }),
    );
    const init = (await h.calls()).slice(since).find((c) => c.path.endsWith('/video/init/'))!;
    expect(init.body).toMatchObject({
      post_info: {
        privacy_level: 'MUTUAL_FOLLOW_FRIENDS',
        disable_comment: true,
        disable_duet: false,
        disable_stitch: true,
        brand_content_toggle: true,
        brand_organic_toggle: true,
      },
    });
    const posts = (await h.emu('GET', 'posts?account=brand_owner')) as {
      posts: Array<{ privacyLevel: string; postInfo: Record<string, unknown> }>;
    };
    expect(posts.posts.map((p) => p.privacyLevel)).toEqual(['MUTUAL_FOLLOW_FRIENDS']);
    expect(posts.posts[0]!.postInfo.brand_content_toggle).toBe(true);
  });

  it('adds music to photos only when the user asked for it', async () => {
    const account = await connect('Music Fan');
    const since = (await h.calls()).length;
    await publishInOneGo(
      adapter().publishing!,
      account,
      request([testMedia('image')], { privacyLevel: 'SELF_ONLY', autoAddMusic: true }),
    );
    const init = (await h.calls()).slice(since).find((c) => c.path.endsWith('/content/init/'))!;
    expect((init.body as { post_info: object }).post_info).toMatchObject({ auto_add_music: true });
  });

  it('refuses before calling TikTok when the choice is missing or not allowed', async () => {
    const account = await connect('Locked Down');
    await h.setKnob('locked_down', 'interactions_off', true);
    const tiktok = adapter().publishing!;
    const photo = [testMedia('image')];
    const missing = await expectPlatformError(tiktok.prepare(account, request(photo, {})));
    expect(missing.message).toMatch(/Choose who can see the TikTok post/);
    const comments = await expectPlatformError(
      tiktok.prepare(account, request(photo, { privacyLevel: 'SELF_ONLY', allowComments: true })),
    );
    expect(comments.message).toBe(
      'This TikTok account has comments turned off, so they cannot be allowed.',
    );
    const branded = await expectPlatformError(
      tiktok.prepare(
        account,
        request(photo, { privacyLevel: 'SELF_ONLY', commercial: true, brandedContent: true }),
      ),
    );
    expect(branded.message).toMatch(/^Branded content cannot be private on TikTok/);
  });
});

describe('TikTok sandbox: refuses what TikTok refuses', () => {
  it('a privacy level the creator is not offered, and private branded content', async () => {
    const { account } = await h.connectAs('Private Acct');
    await h.setKnob('private_acct', 'creator_private', true);
    const token = account.tokens.accessToken;
    const photos = (postInfo: object) => ({
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: postInfo,
      source_info: {
        source: 'PULL_FROM_URL',
        photo_cover_index: 0,
        photo_images: [testMedia('image').url],
      },
    });
    const publicOne = await sandboxCall(
      token,
      '/v2/post/publish/content/init/',
      photos({ privacy_level: 'PUBLIC_TO_EVERYONE' }),
    );
    expect(publicOne.status).toBe(403);
    expect(publicOne.body.error.code).toBe('privacy_level_option_mismatch');
    const branded = await sandboxCall(
      token,
      '/v2/post/publish/content/init/',
      photos({ privacy_level: 'SELF_ONLY', brand_content_toggle: true }),
    );
    expect(branded.status).toBe(400);
    expect(branded.body.error.code).toBe('invalid_params');
    const followers = await sandboxCall(
      token,
      '/v2/post/publish/content/init/',
      photos({ privacy_level: 'FOLLOWER_OF_CREATOR' }),
    );
    expect(followers.status).toBe(200);
  });
});

describe('TikTok: a draft sent to the creator’s inbox', () => {
  it('uploads a video through the inbox init, without post_info, and ends in the inbox', async () => {
    const account = await connect('Draft Maker');
    const video = testMedia('video', { size: 6 * 1024 * 1024, durationSec: 20 });
    const since = (await h.calls()).length;
    const result = await publishInOneGo(
      adapter().publishing!,
      account,
      request([video], { mode: 'inbox' }),
    );
    const calls = (await h.calls()).slice(since);
    const init = calls.find((c) => c.path === '/v2/post/publish/inbox/video/init/')!;
    expect(init.body).toEqual({
      source_info: expect.objectContaining({ source: 'FILE_UPLOAD' }) as unknown,
    });
    expect(calls.some((c) => c.path === '/v2/post/publish/video/init/')).toBe(false);
    expect(result.extra).toMatchObject({ sentToInbox: true, status: 'SEND_TO_USER_INBOX' });
    expect(await h.emu('GET', 'posts?account=draft_maker')).toEqual({ posts: [] });
    const inbox = (await h.emu('GET', 'inbox?account=draft_maker')) as { drafts: unknown[] };
    expect(inbox.drafts).toEqual([expect.objectContaining({ mediaType: 'VIDEO' })]);
  });

  it('sends photos with post_mode MEDIA_UPLOAD', async () => {
    const account = await connect('Photo Drafter');
    const since = (await h.calls()).length;
    await publishInOneGo(
      adapter().publishing!,
      account,
      request([testMedia('image'), testMedia('image')], { mode: 'inbox' }),
    );
    const init = (await h.calls()).slice(since).find((c) => c.path.endsWith('/content/init/'))!;
    expect(init.body).toMatchObject({ post_mode: 'MEDIA_UPLOAD' });
    const inbox = (await h.emu('GET', 'inbox?account=photo_drafter')) as { drafts: unknown[] };
    expect(inbox.drafts).toEqual([expect.objectContaining({ mediaType: 'PHOTO' })]);
  });
});
