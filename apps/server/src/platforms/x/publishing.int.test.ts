import { beforeAll, describe, expect, it } from 'vitest';
import { startSandboxHarness } from '../../test/sandbox-harness.js';
import { publishMediaOf } from '../../test/publish-media.js';
import { gif, jpeg, mp4, png, webp } from '../../test/media-fixtures.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PublishingAdapter, PublishMedia, PublishRequest, StoredAccount } from '../types.js';
import { createXAdapter } from './adapter.js';
import { network } from './index.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));
/** Small chunks, so even test images take several appends; a short finalize timeout. */
let x: PublishingAdapter;
beforeAll(async () => {
  x = createXAdapter(h.settings, { chunkBytes: 8 * 1024, finalizeTimeoutMs: 400 }).publishing!;
});

interface EmuPost {
  id: string;
  account: string;
  text: string;
  mediaCount: number;
  createdAt: string;
}

async function connect(name: string): Promise<StoredAccount & { username: string }> {
  const { account } = await h.connectAs(name);
  return {
    externalId: account.externalId,
    tokens: account.tokens,
    extra: account.extra ?? {},
    secrets: {},
    username: account.username!,
  };
}

const request = (text: string, media: PublishMedia[] = []): PublishRequest => ({
  text,
  media,
  idempotencyKey: `key-${text}`,
});

const posts = async (account: string) =>
  ((await h.emu('GET', `posts?account=${account}`)) as { posts: EmuPost[] }).posts;

const image = async (make: () => Promise<Buffer>, mimeType: string) =>
  publishMediaOf(await make(), { kind: 'image', mimeType, width: 640, height: 480 });

describe('publishing to the X sandbox', () => {
  it('publishes a text post: one post, its permalink from the username', async () => {
    const ada = await connect('Ada Publisher');
    const done = await publishInOneGo(x, ada, request('Hello from Herald & friends <3'));
    expect(done.externalId).toMatch(/^\d{19}$/);
    expect(done.permalink).toBe(`https://x.com/ada_publisher/status/${done.externalId}`);
    expect(await posts('ada_publisher')).toEqual([
      expect.objectContaining({
        id: done.externalId,
        text: 'Hello from Herald & friends <3',
        mediaCount: 0,
      }),
    ]);
  });

  it('uploads one image in chunks and attaches it', async () => {
    const ada = await connect('Img Publisher');
    const photo = await image(() => jpeg(640, 480), 'image/jpeg');
    const done = await publishInOneGo(x, ada, request('One picture', [photo]));
    expect(done.state.media).toEqual([
      { id: expect.any(String), mediaKey: expect.stringMatching(/^3_\d+$/), ready: true },
    ]);
    const appends = await h.calls('/2/media/upload/');
    const segments = appends.filter((c) => c.path.endsWith('/append'));
    expect(segments.length).toBe(Math.ceil(photo.size / (8 * 1024)));
    expect(segments[0]!.body).toMatchObject({
      segment_index: '0',
      media: expect.stringMatching(/bytes\]$/),
    });
    expect(await posts('img_publisher')).toEqual([expect.objectContaining({ mediaCount: 1 })]);
  });

  it('attaches four images, and refuses a fifth or a video beside them before uploading', async () => {
    const ada = await connect('Many Images');
    const files = [
      await image(() => jpeg(320, 240), 'image/jpeg'),
      await image(() => png(320, 240), 'image/png'),
      await image(() => webp(320, 240), 'image/webp'),
      await image(() => jpeg(200, 200), 'image/jpeg'),
    ];
    const done = await publishInOneGo(x, ada, request('Four pictures', files));
    expect((done.state.media as unknown[]).length).toBe(4);
    expect(await posts('many_images')).toEqual([expect.objectContaining({ mediaCount: 4 })]);

    const mediaCalls = async () => (await h.calls('/2/media')).map((c) => `${c.method} ${c.path}`);
    const before = await mediaCalls();
    const fifth = [...files, await image(() => jpeg(100, 100), 'image/jpeg')];
    expect((await expectPlatformError(x.prepare(ada, request('Five', fifth)))).kind).toBe(
      'bad_request',
    );
    const clip = publishMediaOf(await mp4({ seconds: 1 }), {
      kind: 'video',
      mimeType: 'video/mp4',
    });
    const mixed = await expectPlatformError(x.prepare(ada, request('Mixed', [files[0]!, clip])));
    expect(mixed.message).toMatch(/one video or one GIF/);
    expect(await mediaCalls()).toEqual(before);
  });

  it('waits for a video to process (pending → in_progress → succeeded)', async () => {
    const ada = await connect('Video Publisher');
    await h.setKnob('video_publisher', 'processing_ms', true, 300);
    const clip = publishMediaOf(await mp4({ seconds: 2 }), {
      kind: 'video',
      mimeType: 'video/mp4',
      durationSec: 2,
    });
    const prepared = await x.prepare(ada, request('A clip', [clip]));
    const first = await x.check(ada, prepared);
    expect(first).toMatchObject({ status: 'pending', retryAfterMs: 1000 });
    const done = await publishInOneGo(x, ada, request('A clip', [clip]));
    expect(done.checks).toBeGreaterThan(1);
    expect((done.state.media as Array<{ mediaKey: string }>)[0]!.mediaKey).toMatch(/^7_/);
    const statuses = (await h.calls('/2/media/upload')).filter((c) => c.query.command === 'STATUS');
    expect(statuses.length).toBeGreaterThan(1);
    expect(await posts('video_publisher')).toEqual([expect.objectContaining({ mediaCount: 1 })]);
  });

  it('takes a GIF alone, processed like a video', async () => {
    const ada = await connect('Gif Publisher');
    await h.setKnob('gif_publisher', 'processing_ms', true, 0);
    const moving = await image(() => gif(64, 48), 'image/gif');
    const done = await publishInOneGo(x, ada, request('A gif', [moving]));
    expect((done.state.media as Array<{ mediaKey: string }>)[0]!.mediaKey).toMatch(/^16_/);
  });

  it('reports failed processing as a bad request', async () => {
    const ada = await connect('Broken Video');
    await h.setKnob('broken_video', 'processing_ms', true, 0);
    await h.setKnob('broken_video', 'processing_fails');
    const clip = publishMediaOf(await mp4({ seconds: 1 }), {
      kind: 'video',
      mimeType: 'video/mp4',
    });
    const err = await expectPlatformError(publishInOneGo(x, ada, request('Broken', [clip])));
    expect(err).toMatchObject({
      kind: 'bad_request',
      message: expect.stringMatching(/Unsupported video format/),
    });
    expect(await posts('broken_video')).toEqual([]);
  });
});

describe('X errors while publishing', () => {
  it('maps a throttled post to rate_limited with the reset wait, and publishes nothing', async () => {
    const ada = await connect('Throttled');
    await h.setKnob('throttled', 'rate_limit_next');
    const err = await expectPlatformError(publishInOneGo(x, ada, request('Too soon')));
    expect(err.kind).toBe('rate_limited');
    expect(err.details.retryAfterSeconds).toBeGreaterThan(800);
    expect(await posts('throttled')).toEqual([]);
    await publishInOneGo(x, ada, request('Too soon'));
    expect(await posts('throttled')).toHaveLength(1);
  });

  it('waits for the 24-hour cap to reset, not the 15-minute window, when X says the day is used up', async () => {
    const ada = await connect('Daily Capped');
    await h.setKnob('daily_capped', 'daily_cap_next');
    const err = await expectPlatformError(publishInOneGo(x, ada, request('One too many today')));
    expect(err.kind).toBe('rate_limited');
    // The sandbox's day resets in 6 hours; its 15-minute window still has room.
    expect(err.details.retryAfterSeconds).toBeGreaterThan(6 * 3600 - 60);
    expect(err.details.retryAfterSeconds).toBeLessThanOrEqual(6 * 3600 + 1);
    expect(await posts('daily_capped')).toEqual([]);
  });

  it('enforces the posts-per-window cap (publish_cap replaces the 100)', async () => {
    const ada = await connect('Capped');
    await h.setKnob('capped', 'publish_cap', true, 2);
    await publishInOneGo(x, ada, request('cap 1'));
    await publishInOneGo(x, ada, request('cap 2'));
    const err = await expectPlatformError(publishInOneGo(x, ada, request('cap 3')));
    expect(err.kind).toBe('rate_limited');
    expect(err.details.retryAfterSeconds).toBeGreaterThan(800);
    await h.setKnob('capped', 'publish_cap', false);
  });

  it('needs a reconnect when the token is revoked', async () => {
    const ada = await connect('Revoked Poster');
    await h.setKnob('revoked_poster', 'token_revoked');
    const photo = await image(() => jpeg(64, 64), 'image/jpeg');
    const err = await expectPlatformError(x.prepare(ada, request('nope', [photo])));
    expect(err).toMatchObject({ kind: 'reauth', details: { status: 401 } });
    expect((await expectPlatformError(x.finalize(ada, request('nope'), { media: [] }))).kind).toBe(
      'reauth',
    );
  });

  it('makes a 500 during prepare transient, and prepare can simply run again', async () => {
    const ada = await connect('Flaky Upload');
    await h.setKnob('flaky_upload', 'fail_next', true, 2);
    const photo = await image(() => jpeg(320, 240), 'image/jpeg');
    const err = await expectPlatformError(x.prepare(ada, request('flaky', [photo])));
    expect(err).toMatchObject({ kind: 'transient', details: { status: 500 } });
    expect((await expectPlatformError(x.prepare(ada, request('flaky', [photo])))).kind).toBe(
      'transient',
    );
    const done = await publishInOneGo(x, ada, request('flaky', [photo]));
    expect(done.externalId).toMatch(/^\d+$/);
  });

  it('makes a 500 on the post an unknown outcome; reconcile then says it was not published', async () => {
    const ada = await connect('Outage Poster');
    await h.setKnob('outage_poster', 'fail_next');
    const err = await expectPlatformError(publishInOneGo(x, ada, request('During an outage')));
    expect(err.kind).toBe('unknown_outcome');
    expect(err.message).toMatch(/may or may not have published/);
    expect(await x.reconcile!(ada, request('During an outage'), {})).toBeNull();
  });

  it('finalize_timeout: the connection drops after the post is made; reconcile finds it', async () => {
    const ada = await connect('Dropped Answer');
    await h.setKnob('dropped_answer', 'finalize_timeout', true, 0);
    const text = 'Posted, but the answer was lost';
    const err = await expectPlatformError(publishInOneGo(x, ada, request(text)));
    expect(err.kind).toBe('unknown_outcome');
    const published = await posts('dropped_answer');
    expect(published).toHaveLength(1);
    const found = await x.reconcile!(ada, request(text), {});
    expect(found).toEqual({
      externalId: published[0]!.id,
      permalink: `https://x.com/dropped_answer/status/${published[0]!.id}`,
    });
    expect(await x.reconcile!(ada, request('Some other text'), {})).toBeNull();
  });

  it('finalize_timeout: a post that hangs times out, and reconcile matches it by its media', async () => {
    const ada = await connect('Hung Answer');
    await h.setKnob('hung_answer', 'finalize_timeout', true, 1500);
    const photo = await image(() => jpeg(320, 240), 'image/jpeg');
    const req = request('Hanging with a picture', [photo]);
    const state = await x.prepare(ada, req);
    const err = await expectPlatformError(x.finalize(ada, req, state));
    expect(err).toMatchObject({ kind: 'unknown_outcome', details: { code: 'timeout' } });
    const found = await x.reconcile!(ada, { ...req, text: 'X may rewrite the text' }, state);
    const [post] = await posts('hung_answer');
    expect(found?.externalId).toBe(post!.id);
  });

  it('refuses duplicate and over-long text as bad requests, in X’s words', async () => {
    const ada = await connect('Repeater');
    await publishInOneGo(x, ada, request('Say it once'));
    const dup = await expectPlatformError(publishInOneGo(x, ada, request('Say it once')));
    expect(dup).toMatchObject({ kind: 'bad_request', details: { status: 403 } });
    expect(dup.message).toContain('duplicate content');
    // 140 two-unit characters = 280 weighted; one more is too many.
    expect((await publishInOneGo(x, ada, request('日'.repeat(140)))).externalId).toBeTruthy();
    const long = await expectPlatformError(publishInOneGo(x, ada, request('日'.repeat(141))));
    expect(long.kind).toBe('bad_request');
    expect(long.message).toMatch(/shorter/);
    expect(await posts('repeater')).toHaveLength(2);
  });

  it('waits latency_ms on every call', async () => {
    const ada = await connect('Slow Network');
    await h.setKnob('slow_network', 'latency_ms', true, 250);
    // The suite's 400 ms finalize limit is for its timeout tests; a busy machine can take longer
    // than that to answer a call slowed by 250 ms, which is not what this test is about.
    const patient = createXAdapter(h.settings, { finalizeTimeoutMs: 30_000 }).publishing!;
    const started = Date.now();
    await publishInOneGo(patient, ada, request('slowly'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});

describe('X replies', () => {
  it('lists replies as a tree, replies, and deletes its own reply', async () => {
    const ada = await connect('Conversation Owner');
    const post = await publishInOneGo(x, ada, request('What do you think?'));
    const grace = (await h.emu('POST', 'comments', {
      postId: post.externalId,
      fromName: 'Grace Hopper',
      // A mention "summons" the account: X then accepts its reply (docs/networks.md#x-comments).
      message: '@conversation_owner Looks great & works',
      likes: 3,
    })) as { id: string };
    await h.emu('POST', 'comments', {
      postId: post.externalId,
      parentId: grace.id,
      fromName: 'Linus',
      message: 'Agreed',
    });

    const listed = await x.listComments!(ada, post.externalId, { limit: 20 });
    expect(listed.nextCursor).toBeNull();
    expect(listed.comments).toEqual([
      expect.objectContaining({
        id: grace.id,
        message: '@conversation_owner Looks great & works',
        likes: 3,
        isOwn: false,
        from: expect.objectContaining({ name: 'Grace Hopper', pictureUrl: expect.any(String) }),
        replies: [expect.objectContaining({ message: 'Agreed', isOwn: false })],
      }),
    ]);

    const mine = await x.reply!(
      ada,
      { externalId: post.externalId, commentId: grace.id },
      'Thanks!',
    );
    expect(mine).toMatchObject({ message: 'Thanks!', isOwn: true, from: { id: ada.externalId } });
    const again = await x.listComments!(ada, post.externalId, { limit: 20 });
    const replies = again.comments[0]!.replies;
    expect(replies.map((r) => [r.message, r.isOwn])).toEqual([
      ['Agreed', false],
      ['Thanks!', true],
    ]);

    await x.deleteComment!(ada, mine.id);
    await x.deleteComment!(ada, mine.id); // gone already: nothing to do
    const after = await x.listComments!(ada, post.externalId, { limit: 20 });
    expect(after.comments[0]!.replies.map((r) => r.message)).toEqual(['Agreed']);
    const notMine = await expectPlatformError(x.deleteComment!(ada, grace.id));
    expect(notMine).toMatchObject({ kind: 'bad_request', details: { status: 403 } });
    expect(x.editComment).toBeUndefined();
  });

  it('pages replies with next_token', async () => {
    const ada = await connect('Popular Poster');
    const post = await publishInOneGo(x, ada, request('Busy thread'));
    for (let i = 0; i < 12; i++)
      await h.emu('POST', 'comments', {
        postId: post.externalId,
        fromName: `Fan ${i}`,
        message: `#${i}`,
      });
    const first = await x.listComments!(ada, post.externalId, { limit: 10 });
    expect(first.comments).toHaveLength(10);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await x.listComments!(ada, post.externalId, {
      limit: 10,
      cursor: first.nextCursor!,
    });
    expect(second.comments.map((c) => c.message)).toEqual(['#1', '#0']);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses by default a reply the author did not summon, and says why and what to do', async () => {
    const ada = await connect('Strict Replier');
    const post = await publishInOneGo(x, ada, request('Replies are restricted'));
    const stranger = (await h.emu('POST', 'comments', {
      postId: post.externalId,
      fromName: 'Stranger',
      message: 'hello',
    })) as { id: string };
    const err = await expectPlatformError(
      x.reply!(ada, { externalId: post.externalId, commentId: stranger.id }, 'hi back'),
    );
    expect(err).toMatchObject({ kind: 'bad_request', details: { status: 403 } });
    expect(err.message).toBe(
      'X only accepts a reply sent through an app when the person you answer has mentioned or quoted your account (X calls this being “summoned”). This comment did not, so answer it on X itself.',
    );
    // Replying under its own post is always allowed.
    await x.reply!(ada, { externalId: post.externalId, commentId: '' }, 'a note on my own post');
    // An account whose access has no such rule (the reply_open knob) may answer anyone.
    await h.setKnob('strict_replier', 'reply_open');
    await x.reply!(ada, { externalId: post.externalId, commentId: stranger.id }, 'hi back');
  });
});
