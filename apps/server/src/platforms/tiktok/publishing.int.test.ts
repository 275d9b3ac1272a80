import { beforeAll, describe, expect, it } from 'vitest';
import { startSandboxHarness, type SandboxHarness } from '../../test/sandbox-harness.js';
import { testMedia } from '../../test/publish-media.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PublishingAdapter, PublishRequest, StoredAccount } from '../types.js';
import { createTikTokAdapter } from './adapter.js';
import type { TikTokUrls } from './api.js';
import { network } from './index.js';
import { TIKTOK_TIMING, type TikTokTiming } from './limits.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

const MB = 1024 * 1024;
const h = useHarness(() => startSandboxHarness(network));
const fast: TikTokTiming = {
  ...TIKTOK_TIMING,
  initTimeoutMs: 400,
  statusFirstDelayMs: 50,
  statusMaxDelayMs: 200,
  statusBudgetMs: 3000,
  chunkBytes: 5 * MB,
};
let tiktok: PublishingAdapter;
const adapterWith = (timing: Partial<TikTokTiming>) =>
  createTikTokAdapter(h.settings, { ...fast, ...timing }).publishing!;

beforeAll(async () => {
  tiktok = adapterWith({});
});

async function connect(name: string): Promise<StoredAccount> {
  const { account } = await h.connectAs(name);
  return { externalId: account.externalId, tokens: account.tokens, extra: {}, secrets: {} };
}

/** As the user chose it in the composer: everyone may see it, comment, duet and stitch. */
const chosen = {
  privacyLevel: 'PUBLIC_TO_EVERYONE',
  allowComments: true,
  allowDuet: true,
  allowStitch: true,
};
const post = (text: string, media: PublishRequest['media']): PublishRequest => ({
  text,
  media,
  idempotencyKey: `key-${text}`,
  settings: chosen,
});

const postsOf = async (account: string) =>
  ((await h.emu('GET', `posts?account=${account}`)) as { posts: any[] }).posts;
const summary = (calls: Awaited<ReturnType<SandboxHarness<TikTokUrls>['calls']>>) =>
  calls.map((c) => `${c.method} ${c.path.replace(/\/upload\/.*/, '/upload/…')} ${c.status}`);

describe('publishing to TikTok through the sandbox', () => {
  it('uploads a video in chunks, then follows the status to the post id', async () => {
    const account = await connect('Video Creator');
    await h.setKnob('video_creator', 'processing_ms', true, 150);
    const video = testMedia('video', { size: 11 * MB, durationSec: 30 });
    const since = (await h.calls()).length;
    const result = await publishInOneGo(tiktok, account, post('My first clip #herald', [video]));

    const calls = (await h.calls()).slice(since);
    const lines = summary(calls).filter((l) => !l.includes('status/fetch'));
    expect(lines).toEqual([
      'POST /v2/post/publish/creator_info/query/ 200',
      'POST /v2/post/publish/video/init/ 200',
      'PUT /upload/… 206',
      'PUT /upload/… 201',
    ]);
    const init = calls.find((c) => c.path === '/v2/post/publish/video/init/')!;
    expect(init.body).toMatchObject({
      post_info: {
        title: 'My first clip #herald',
        privacy_level: 'PUBLIC_TO_EVERYONE',
        disable_comment: false,
        disable_duet: false,
        disable_stitch: false,
      },
      source_info: {
        source: 'FILE_UPLOAD',
        video_size: 11 * MB,
        chunk_size: 5 * MB,
        total_chunk_count: 2,
      },
    });
    expect(calls.filter((c) => c.path.startsWith('/upload/')).map((c) => c.body)).toEqual([
      { bytes: 5 * MB, head: '[16 bytes]' },
      { bytes: 6 * MB, head: '[16 bytes]' },
    ]);

    const [published] = await postsOf('video_creator');
    expect(await postsOf('video_creator')).toHaveLength(1);
    expect(published).toMatchObject({ mediaType: 'VIDEO', mediaCount: 1, public: true });
    // The id is an int64 beyond a JS number: it must come through digit for digit.
    expect(result.externalId).toBe(published.id);
    expect(result.externalId).toMatch(/^7\d{18}$/);
    expect(result.permalink).toBe(`https://www.tiktok.com/@video_creator/video/${published.id}`);
    expect(result.extra).toMatchObject({
      tiktokUsername: 'video_creator',
      status: 'PUBLISH_COMPLETE',
      publishId: published.publishId,
    });
  });

  it('sends a small video as one chunk, and can let TikTok pull it instead', async () => {
    const account = await connect('Small Clips');
    await h.setKnob('small_clips', 'processing_ms', true, 100);
    const small = testMedia('video', { size: 2 * MB });
    const since = (await h.calls()).length;
    await publishInOneGo(tiktok, account, post('small', [small]));
    const init = (await h.calls()).slice(since).find((c) => c.path.endsWith('/video/init/'))!;
    expect((init.body as any).source_info).toEqual({
      source: 'FILE_UPLOAD',
      video_size: 2 * MB,
      chunk_size: 2 * MB,
      total_chunk_count: 1,
    });

    const pulling = adapterWith({ videoSource: 'PULL_FROM_URL' });
    const pulled = testMedia('video');
    const before = (await h.calls()).length;
    const result = await publishInOneGo(pulling, account, post('pulled', [pulled]));
    const calls = (await h.calls()).slice(before);
    expect(calls.some((c) => c.path.startsWith('/upload/'))).toBe(false);
    expect((calls.find((c) => c.path.endsWith('/video/init/'))!.body as any).source_info).toEqual({
      source: 'PULL_FROM_URL',
      video_url: pulled.url,
    });
    expect(result.permalink).toContain('/@small_clips/video/');
    expect((await postsOf('small_clips')).map((p) => p.text)).toEqual(['small', 'pulled']);
  });

  it('posts photos pulled from their URLs, with a short title and the full description', async () => {
    const account = await connect('Photo Dump');
    const photos = [testMedia('image'), testMedia('image'), testMedia('image')];
    const text =
      'Weekend in the mountains, a long first line that goes on well past ninety characters\nand more';
    const since = (await h.calls()).length;
    const result = await publishInOneGo(tiktok, account, post(text, photos));
    const init = (await h.calls()).slice(since).find((c) => c.path.endsWith('/content/init/'))!;
    expect(init.body).toEqual({
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      // No auto_add_music: TikTok adds music only when the user asked for it.
      post_info: {
        privacy_level: 'PUBLIC_TO_EVERYONE',
        disable_comment: false,
        brand_content_toggle: false,
        brand_organic_toggle: false,
        title:
          'Weekend in the mountains, a long first line that goes on well past ninety characters',
        description: text,
      },
      source_info: {
        source: 'PULL_FROM_URL',
        photo_cover_index: 0,
        photo_images: photos.map((p) => p.url),
      },
    });
    expect(await postsOf('photo_dump')).toEqual([
      expect.objectContaining({ id: result.externalId, mediaType: 'PHOTO', mediaCount: 3, text }),
    ]);
  });

  it('returns the publish_id without a permalink while TikTok has no public id yet', async () => {
    const account = await connect('Under Review');
    await h.setKnob('under_review', 'processing_ms', true, 0);
    await h.setKnob('under_review', 'moderation_ms', true, 600_000);
    const result = await publishInOneGo(
      adapterWith({ statusBudgetMs: 300 }),
      account,
      post('wait for it', [testMedia('image')]),
    );
    expect(result.externalId).toMatch(/^p_pub_url~v2\.\d+$/);
    expect(result.permalink).toBeNull();
    expect(result.extra).toEqual({
      publishId: result.externalId,
      status: 'PUBLISH_COMPLETE',
      tiktokUsername: 'under_review',
    });
    expect(await postsOf('under_review')).toEqual([
      expect.objectContaining({ publishId: result.externalId, public: false }),
    ]);
  });

  it('has no comments API (Content Posting has none)', () => {
    expect(tiktok.listComments).toBeUndefined();
    expect(tiktok.reply).toBeUndefined();
  });
});

describe('TikTok publishing errors', () => {
  it('refuses what TikTok would refuse', async () => {
    const account = await connect('Rule Breaker');
    const refusals = [
      post('text only', []),
      post('mixed', [testMedia('video'), testMedia('image')]),
      post('png', [{ ...testMedia('image'), mimeType: 'image/png', fileName: 'a.png' }]),
    ];
    for (const request of refusals)
      expect((await expectPlatformError(tiktok.prepare(account, request))).kind).toBe(
        'bad_request',
      );
    const long = await expectPlatformError(
      tiktok.prepare(account, post('long', [testMedia('video', { durationSec: 700 })])),
    );
    expect(long.message).toBe(
      'This TikTok account can post videos of up to 600 seconds; this one lasts 700.',
    );
    expect(await postsOf('rule_breaker')).toEqual([]);
  });

  it('maps throttling, outages and a revoked token on prepare', async () => {
    const account = await connect('Flaky');
    const request = post('flaky', [testMedia('video')]);
    await h.setKnob('flaky', 'rate_limit_next');
    expect((await expectPlatformError(tiktok.prepare(account, request))).kind).toBe('rate_limited');
    await h.setKnob('flaky', 'fail_next');
    const outage = await expectPlatformError(tiktok.prepare(account, request));
    expect(outage).toMatchObject({ kind: 'transient', details: { code: 'internal_error' } });
    expect((await tiktok.prepare(account, request)).privacyLevel).toBe('PUBLIC_TO_EVERYONE');
    await h.setKnob('flaky', 'token_revoked');
    const revoked = await expectPlatformError(tiktok.prepare(account, request));
    expect(revoked).toMatchObject({ kind: 'reauth', details: { code: 'access_token_invalid' } });
  });

  it('stops at the per-minute init cap with nothing posted', async () => {
    const account = await connect('Busy Bee');
    await h.setKnob('busy_bee', 'publish_cap', true, 1);
    await publishInOneGo(tiktok, account, post('one', [testMedia('image')]));
    const request = post('two', [testMedia('image')]);
    const state = await tiktok.prepare(account, request);
    const capped = await expectPlatformError(tiktok.finalize(account, request, state));
    expect(capped).toMatchObject({
      kind: 'rate_limited',
      details: { code: 'rate_limit_exceeded', retryAfterSeconds: 60 },
    });
    expect(await postsOf('busy_bee')).toHaveLength(1);
  });

  it('reports a failed processing in TikTok’s words', async () => {
    const account = await connect('Broken File');
    await h.setKnob('broken_file', 'processing_ms', true, 100);
    await h.setKnob('broken_file', 'processing_fails');
    const failed = await expectPlatformError(
      publishInOneGo(tiktok, account, post('broken', [testMedia('video')])),
    );
    expect(failed).toMatchObject({
      kind: 'bad_request',
      details: { code: 'file_format_check_failed' },
    });
    expect(failed.message).toBe(
      'TikTok could not read the video file. (TikTok said: file_format_check_failed)',
    );
    const notAVideo = testMedia('video', { bytes: Buffer.alloc(100_000, 1) });
    const unreadable = await expectPlatformError(
      publishInOneGo(tiktok, account, post('not a video', [notAVideo])),
    );
    expect(unreadable.details.code).toBe('file_format_check_failed');
    expect(await postsOf('broken_file')).toEqual([]);
  });

  it('turns a lost photo init into unknown_outcome; reconcile finds the one post', async () => {
    const account = await connect('Lost Answer');
    await h.setKnob('lost_answer', 'processing_ms', true, 0);
    const request = post('Did it post?', [testMedia('image'), testMedia('image')]);
    const state = await tiktok.prepare(account, request);
    await h.setKnob('lost_answer', 'finalize_timeout', true, 1000);
    const lost = await expectPlatformError(tiktok.finalize(account, request, state));
    expect(lost.kind).toBe('unknown_outcome');

    const [published] = await postsOf('lost_answer');
    expect(await tiktok.reconcile!(account, request, state)).toEqual({
      externalId: published.id,
      permalink: `https://www.tiktok.com/@lost_answer/video/${published.id}`,
      extra: { tiktokUsername: 'lost_answer' },
    });
    expect(await postsOf('lost_answer')).toHaveLength(1);
    // Let the hung request finish before the emulator goes away.
    await new Promise((resolve) => setTimeout(resolve, 800));
  });

  it('treats a lost FILE_UPLOAD init as nothing posted', async () => {
    const account = await connect('No Bytes');
    const request = post('never uploaded', [testMedia('video')]);
    const state = await tiktok.prepare(account, request);
    await h.setKnob('no_bytes', 'finalize_timeout', true, 800);
    const lost = await expectPlatformError(tiktok.finalize(account, request, state));
    expect(lost.kind).toBe('transient');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await postsOf('no_bytes')).toEqual([]);
  });

  it('reconciles to null once a missing post can no longer appear, and says so before', async () => {
    const account = await connect('Quiet');
    const request = post('nothing here', [testMedia('image')]);
    const state = await tiktok.prepare(account, request);
    const recent = await expectPlatformError(tiktok.reconcile!(account, request, state));
    expect(recent.kind).toBe('unknown_outcome');
    const old = { ...state, preparedAt: new Date(Date.now() - 3600_000).toISOString() };
    expect(await tiktok.reconcile!(account, request, old)).toBeNull();
  });
});
