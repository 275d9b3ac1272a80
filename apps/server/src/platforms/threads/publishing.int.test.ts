import { checkText } from '@herald/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSandboxHarness } from '../../test/sandbox-harness.js';
import { testMedia } from '../../test/publish-media.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PublishingAdapter, PublishRequest, StoredAccount } from '../types.js';
import { createThreadsAdapter } from './adapter.js';
import { network } from './index.js';
import { THREADS_MEDIA_CONSTRAINTS, THREADS_TIMING } from './limits.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));
let threads: PublishingAdapter;
beforeAll(async () => {
  threads = createThreadsAdapter(h.settings, {
    ...THREADS_TIMING,
    firstLookMs: 20,
    pollMs: 20,
    giveUpMs: 10_000,
    publishTimeoutMs: 400,
    replyReadyMs: 2000,
  }).publishing!;
});

async function connect(name: string): Promise<StoredAccount> {
  const { account } = await h.connectAs(name);
  return { externalId: account.externalId, tokens: account.tokens, extra: {}, secrets: {} };
}

const post = (text: string, media: PublishRequest['media'] = []): PublishRequest => ({
  text,
  media,
  idempotencyKey: `key-${text}`,
});

const postsOf = async (account: string) =>
  ((await h.emu('GET', `posts?account=${account}`)) as { posts: any[] }).posts;

describe('publishing to Threads through the sandbox', () => {
  it('publishes a text post: one container, one threads_publish, the permalink', async () => {
    const account = await connect('Text Writer');
    const since = (await h.calls()).length;
    const result = await publishInOneGo(threads, account, post('Hello from Herald 👋'));
    expect(result.permalink).toMatch(
      /^https:\/\/www\.threads\.com\/@text_writer\/post\/[\w-]{11}$/,
    );
    expect(result.extra).toEqual({ shortcode: result.permalink!.split('/').pop() });
    const calls = (await h.calls()).slice(since).map((c) => `${c.method} ${c.path} ${c.status}`);
    const user = account.externalId;
    const container = result.state.containerId as string;
    expect(calls).toEqual([
      `GET /v1.0/${user}/threads_publishing_limit 200`,
      `POST /v1.0/${user}/threads 200`,
      `GET /v1.0/${container} 200`,
      `POST /v1.0/${user}/threads_publish 200`,
      `GET /v1.0/${result.externalId} 200`,
    ]);
    expect(await postsOf('text_writer')).toEqual([
      expect.objectContaining({
        id: result.externalId,
        text: 'Hello from Herald 👋',
        mediaType: 'TEXT_POST',
        mediaCount: 0,
        permalink: result.permalink,
      }),
    ]);
  });

  it('publishes an image pulled from its signed URL', async () => {
    const account = await connect('Image Poster');
    const image = testMedia('image');
    const since = (await h.calls()).length;
    const result = await publishInOneGo(threads, account, post('A picture', [image]));
    const create = (await h.calls()).slice(since).find((c) => c.path.endsWith('/threads'))!;
    expect(create.body).toEqual({ media_type: 'IMAGE', image_url: image.url, text: 'A picture' });
    expect(await postsOf('image_poster')).toEqual([
      expect.objectContaining({ id: result.externalId, mediaType: 'IMAGE', mediaCount: 1 }),
    ]);
  });

  it('waits for a video to process before publishing it', async () => {
    const account = await connect('Video Maker');
    await h.setKnob('video_maker', 'processing_ms', true, 300);
    const result = await publishInOneGo(threads, account, post('Watch', [testMedia('video')]));
    expect(result.checks).toBeGreaterThan(1);
    expect(await postsOf('video_maker')).toEqual([
      expect.objectContaining({ id: result.externalId, mediaType: 'VIDEO', mediaCount: 1 }),
    ]);
  });

  it('publishes a carousel: items first, the parent once they are ready, one post', async () => {
    const account = await connect('Carousel Fan');
    await h.setKnob('carousel_fan', 'processing_ms', true, 250);
    const media = [testMedia('image'), testMedia('video'), testMedia('image')];
    const since = (await h.calls()).length;
    const result = await publishInOneGo(threads, account, post('Three at once', media));
    const creates = (await h.calls()).slice(since).filter((c) => c.path.endsWith('/threads'));
    expect(creates.map((c) => (c.body as any).media_type)).toEqual([
      'IMAGE',
      'VIDEO',
      'IMAGE',
      'CAROUSEL',
    ]);
    expect(creates[1]!.body).toMatchObject({ is_carousel_item: 'true', video_url: media[1]!.url });
    expect((creates[3]!.body as any).children).toBe((result.state.childIds as string[]).join(','));
    expect(await postsOf('carousel_fan')).toEqual([
      expect.objectContaining({
        id: result.externalId,
        text: 'Three at once',
        mediaType: 'CAROUSEL_ALBUM',
        mediaCount: 3,
      }),
    ]);
  });

  it('refuses what Threads would refuse before calling it', async () => {
    const account = await connect('Too Much');
    const long = await expectPlatformError(threads.prepare(account, post('🙂'.repeat(130))));
    expect(long).toMatchObject({ kind: 'bad_request' });
    expect(long.message).toContain('520 characters');
    const many = Array.from({ length: 21 }, () => testMedia('image'));
    expect((await expectPlatformError(threads.prepare(account, post('x', many)))).kind).toBe(
      'bad_request',
    );
    expect((await expectPlatformError(threads.prepare(account, post('  ')))).kind).toBe(
      'bad_request',
    );
  });

  it('counts text as Threads does: the composer rule, the adapter and the sandbox agree', async () => {
    const account = await connect('Accented Writer');
    // 500 accented letters are 1,000 UTF-8 bytes but 500 characters for Threads.
    const accented = 'é'.repeat(500);
    expect(checkText(accented, THREADS_MEDIA_CONSTRAINTS, 'Threads')).toBeNull();
    const done = await publishInOneGo(threads, account, post(accented));
    expect(await postsOf('accented_writer')).toEqual([
      expect.objectContaining({ id: done.externalId, text: accented }),
    ]);
    // An emoji counts as its 4 bytes: 497 letters and one emoji are 501.
    const over = `${'a'.repeat(497)}👋`;
    expect(checkText(over, THREADS_MEDIA_CONSTRAINTS, 'Threads')).toBe(
      'The text is too long for Threads: 501 of 500 characters.',
    );
    const refused = await fetch(`${h.base}/v1.0/${account.externalId}/threads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${account.tokens.accessToken}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ media_type: 'TEXT', text: over }),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('at most 500 characters');
  });

  it('reports an expired media URL and a failed processing in Threads’ words', async () => {
    const account = await connect('Unlucky Media');
    const stale = testMedia('image', { expiresInSeconds: -60 });
    const expired = await expectPlatformError(threads.prepare(account, post('old', [stale])));
    expect(expired).toMatchObject({ kind: 'bad_request', details: { code: 9004 } });

    await h.setKnob('unlucky_media', 'processing_fails');
    const state = await threads.prepare(account, post('broken', [testMedia('video')]));
    await h.advanceClock(5);
    const failed = await expectPlatformError(threads.check(account, state));
    expect(failed.kind).toBe('bad_request');
    expect(failed.message).toBe(
      'The media: Threads could not process the video. (Threads said: FAILED_PROCESSING_VIDEO)',
    );
    expect(await postsOf('unlucky_media')).toEqual([]);
  });
});

describe('Threads publishing errors', () => {
  it('maps throttling, outages and a revoked token', async () => {
    const account = await connect('Error Prone');
    await h.setKnob('error_prone', 'rate_limit_next', true, 2);
    expect((await expectPlatformError(threads.prepare(account, post('a')))).kind).toBe(
      'rate_limited',
    );
    expect((await expectPlatformError(threads.prepare(account, post('a')))).kind).toBe(
      'rate_limited',
    );
    await h.setKnob('error_prone', 'fail_next');
    expect((await expectPlatformError(threads.prepare(account, post('a')))).kind).toBe('transient');
    await publishInOneGo(threads, account, post('through at last'));

    await h.setKnob('error_prone', 'token_revoked');
    const revoked = await expectPlatformError(threads.prepare(account, post('b')));
    expect(revoked).toMatchObject({ kind: 'reauth', details: { code: 190 } });
    expect(await postsOf('error_prone')).toHaveLength(1);
  });

  it('stops at the 24 h publishing quota before making containers', async () => {
    const account = await connect('Prolific');
    await h.setKnob('prolific', 'publish_cap', true, 1);
    await publishInOneGo(threads, account, post('the only one today'));
    const since = (await h.calls()).length;
    const capped = await expectPlatformError(threads.prepare(account, post('one more')));
    expect(capped).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 3600 } });
    expect((await h.calls()).slice(since).map((c) => c.path)).toEqual([
      `/v1.0/${account.externalId}/threads_publishing_limit`,
    ]);
  });

  it('turns a publish that times out into unknown_outcome, and reconcile finds the post', async () => {
    const account = await connect('Slow Network');
    const request = post('Did this go out?');
    const state = await threads.prepare(account, request);
    expect((await threads.check(account, state)).status).toBe('ready');
    await h.setKnob('slow_network', 'finalize_timeout', true, 1200);
    const lost = await expectPlatformError(threads.finalize(account, request, state));
    expect(lost.kind).toBe('unknown_outcome');

    const [published] = await postsOf('slow_network');
    const found = await threads.reconcile!(account, request, state);
    expect(found).toEqual({
      externalId: published.id,
      permalink: published.permalink,
      extra: { shortcode: published.permalink.split('/').pop() },
    });
    expect(await postsOf('slow_network')).toHaveLength(1);
    // Let the hung request finish before the emulator goes away.
    await new Promise((resolve) => setTimeout(resolve, 1000));
  });

  it('reconciles to null when the publish failed before Threads made the post', async () => {
    const account = await connect('Second Try');
    const request = post('Try again safely');
    const state = await threads.prepare(account, request);
    await h.setKnob('second_try', 'fail_next');
    const lost = await expectPlatformError(threads.finalize(account, request, state));
    expect(lost).toMatchObject({ kind: 'unknown_outcome', details: { status: 500 } });
    expect(await threads.reconcile!(account, request, state)).toBeNull();
    const result = await threads.finalize(account, request, state);
    expect((await postsOf('second_try')).map((p) => p.id)).toEqual([result.externalId]);
  });
});

describe('Threads replies as comments', () => {
  it('lists replies with their nesting, replies, and deletes its own reply', async () => {
    const account = await connect('Conversation Starter');
    const { externalId } = await publishInOneGo(threads, account, post('What do you think?'));
    const first = (await h.emu('POST', 'comments', {
      postId: externalId,
      fromName: 'Ada Lovelace',
      message: 'Looks great',
    })) as { id: string };
    await h.emu('POST', 'comments', { postId: first.id, fromName: 'Bob', message: 'Agreed' });
    await h.emu('POST', 'comments', { postId: externalId, fromName: 'Cy', message: 'Second!' });

    const listed = await threads.listComments!(account, externalId, { limit: 10 });
    expect(listed.nextCursor).toBeNull();
    expect(listed.comments.map((c) => [c.message, c.from.name, c.isOwn])).toEqual([
      ['Looks great', 'ada_lovelace', false],
      ['Second!', 'cy', false],
    ]);
    expect(listed.comments[0]!.replies.map((c) => c.message)).toEqual(['Agreed']);
    expect(listed.comments[0]).toMatchObject({ id: first.id, likes: 0 });

    const mine = await threads.reply!(account, { externalId, commentId: first.id }, 'Thank you!');
    expect(mine).toMatchObject({
      message: 'Thank you!',
      isOwn: true,
      from: { id: account.externalId, name: 'conversation_starter' },
      replies: [],
    });
    const again = await threads.listComments!(account, externalId, { limit: 10 });
    expect(again.comments[0]!.replies.map((c) => [c.message, c.isOwn])).toEqual([
      ['Agreed', false],
      ['Thank you!', true],
    ]);
    expect(await postsOf('conversation_starter')).toEqual([
      expect.objectContaining({ id: externalId, replies: 2 }),
    ]);

    await threads.deleteComment!(account, mine.id);
    const after = await threads.listComments!(account, externalId, { limit: 10 });
    expect(after.comments[0]!.replies.map((c) => c.message)).toEqual(['Agreed']);
    const notMine = await expectPlatformError(threads.deleteComment!(account, first.id));
    expect(notMine.kind).toBe('bad_request');
    expect(threads.editComment).toBeUndefined();
  });

  it('pages through replies with the cursor', async () => {
    const account = await connect('Popular');
    const { externalId } = await publishInOneGo(threads, account, post('Say hi'));
    for (const name of ['A', 'B', 'C'])
      await h.emu('POST', 'comments', {
        postId: externalId,
        fromName: name,
        message: `hi ${name}`,
      });
    const first = await threads.listComments!(account, externalId, { limit: 2 });
    expect(first.comments.map((c) => c.message)).toEqual(['hi A', 'hi B']);
    const second = await threads.listComments!(account, externalId, {
      limit: 2,
      cursor: first.nextCursor!,
    });
    expect(second.comments.map((c) => c.message)).toEqual(['hi C']);
    expect(second.nextCursor).toBeNull();
  });
});
