import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkMediaFile } from '@herald/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg, png } from '../../test/media-fixtures.js';
import { startSandboxHarness } from '../../test/graph-harness.js';
import { imageMedia, publishRequest, videoMedia } from '../../test/publish-media.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PublishingAdapter, StoredAccount } from '../types.js';
import { createInstagramAdapter } from './adapter.js';
import { network } from './index.js';
import { INSTAGRAM_MEDIA_CONSTRAINTS } from './limits.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

/**
 * A stand-in for Herald's media route (`{api}/media/…`), the only URLs the sandbox reads to
 * check an image as Instagram does; it records what it is asked for.
 */
const heraldFiles: Record<string, Buffer> = {};
const heraldHits: string[] = [];
const herald = createServer((req, res) => {
  heraldHits.push(req.url ?? '');
  const body = heraldFiles[req.url ?? ''];
  res.writeHead(body ? 200 : 404).end(body);
});
let heraldOrigin = '';

const h = useHarness(() => startSandboxHarness(network, { heraldStandIn: () => heraldOrigin }));
let ig: PublishingAdapter;
beforeAll(async () => {
  ig = createInstagramAdapter(h.settings, FAST).publishing!;
  await new Promise<void>((resolve) => herald.listen(0, '127.0.0.1', resolve));
  heraldOrigin = `http://127.0.0.1:${(herald.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => herald.close(resolve)));

const FAST = { imagePollMs: 5, videoPollMs: 5, maxPollMs: 40, finalizeTimeoutMs: 3000 };

/** Connects `name` (one Page with one Instagram account named after it). */
async function connect(name: string): Promise<StoredAccount & { username: string }> {
  const username = name.toLowerCase().replace(/\W+/g, '_');
  const { code } = await h.authorize({
    fields: { account: name, pages: `${name} Page`, instagram: username },
  });
  const [account] = await h.adapter.connect({
    code: code!,
    redirectUri: h.redirectUri,
    codeVerifier: '',
  });
  return {
    externalId: account!.externalId,
    tokens: account!.tokens,
    extra: account!.extra ?? {},
    secrets: account!.secrets ?? {},
    username,
  };
}

/** Publishing calls on the account's edges (not the profile read of connecting). */
const pathsOf = async (igUserId: string) =>
  (await h.calls()).map((c) => `${c.method} ${c.path}`).filter((p) => p.includes(`/${igUserId}/`));

describe('Instagram publishing against the Graph emulator', () => {
  it('publishes a single image and reads its permalink and shortcode', async () => {
    const account = await connect('Ada Photos');
    const request = publishRequest('First light #sandbox', [await imageMedia()]);
    const result = await publishInOneGo(ig, account, request);

    expect(result.externalId).toMatch(/^\d{17,18}$/);
    const shortcode = result.extra?.shortcode as string;
    expect(shortcode).toMatch(/^[A-Za-z0-9_-]{6,}$/);
    expect(shortcode).toMatch(/[A-Za-z]/);
    expect(result.permalink).toBe(`https://www.instagram.com/p/${shortcode}/`);
    expect(result.checks).toBe(1);

    const posts = await h.posts(account.externalId);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      id: result.externalId,
      network: 'instagram',
      accountName: account.username,
      text: 'First light #sandbox',
      mediaCount: 1,
      kind: 'image',
    });

    const calls = await pathsOf(account.externalId);
    expect(calls).toEqual([
      `POST /v24.0/${account.externalId}/media`,
      `GET /v24.0/${account.externalId}/content_publishing_limit`,
      `POST /v24.0/${account.externalId}/media_publish`,
    ]);
    const created = (await h.calls()).find((c) => c.path === `/v24.0/${account.externalId}/media`);
    expect(created?.body).toMatchObject({
      image_url: request.media[0]!.url,
      caption: 'First light #sandbox',
    });
  });

  it('publishes a carousel of images as one post with every item', async () => {
    const account = await connect('Ada Carousel');
    const media = [await imageMedia('a.jpg'), await imageMedia('b.jpg'), await imageMedia('c.jpg')];
    const result = await publishInOneGo(ig, account, publishRequest('Three of a kind', media));
    expect(result.permalink).toMatch(/^https:\/\/www\.instagram\.com\/p\/[\w-]+\/$/);

    const posts = await h.posts(account.externalId);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ kind: 'carousel', mediaCount: 3, text: 'Three of a kind' });
    const creations = (await h.calls()).filter(
      (c) => c.method === 'POST' && c.path === `/v24.0/${account.externalId}/media`,
    );
    expect(creations.map((c) => c.body?.is_carousel_item ?? c.body?.media_type)).toEqual([
      'true',
      'true',
      'true',
      'CAROUSEL',
    ]);
    expect(creations[3]?.body?.children).toBe(
      (result.state.children as Array<{ id: string }>).map((c) => c.id).join(','),
    );
  });

  it('publishes a video as a reel once Instagram has processed it', async () => {
    const account = await connect('Ada Reels');
    const result = await publishInOneGo(
      ig,
      account,
      publishRequest('Moving pictures', [await videoMedia()]),
    );
    expect(result.checks).toBeGreaterThan(1);
    expect(result.permalink).toMatch(/^https:\/\/www\.instagram\.com\/reel\/[\w-]+\/$/);
    const created = (await h.calls()).find(
      (c) => c.method === 'POST' && c.path === `/v24.0/${account.externalId}/media`,
    );
    expect(created?.body).toMatchObject({ media_type: 'REELS', caption: 'Moving pictures' });
    expect(await h.posts(account.externalId)).toMatchObject([{ kind: 'reel', mediaCount: 1 }]);
  });

  it('waits for a carousel video before creating the carousel', async () => {
    const account = await connect('Ada Mixed');
    const media = [await imageMedia(), await videoMedia()];
    const prepared = await ig.prepare(account, publishRequest('Mixed bag', media));
    expect(prepared.containerId).toBeNull();
    const result = await publishInOneGo(ig, account, publishRequest('Mixed bag', media));
    expect(result.state.containerId).toEqual(expect.any(String));
    expect(await h.posts(account.externalId)).toMatchObject([
      { kind: 'carousel', mediaCount: 2, text: 'Mixed bag' },
    ]);
  });

  it('keeps the carousel items when creating the parent fails, and the retry reuses them', async () => {
    const account = await connect('Ada Kept');
    const request = publishRequest('Kept items', [
      await imageMedia('a.jpg'),
      await imageMedia('b.jpg'),
    ]);
    await h.setKnob('Ada Kept', 'carousel_create_fails', 1);
    // The items are made; the parent waits for check, so its failure leaves them in the state.
    const state = await ig.prepare(account, request);
    expect(state.children).toHaveLength(2);
    const failed = await expectPlatformError(ig.check(account, state));
    expect(failed).toMatchObject({ kind: 'transient', details: { code: -1 } });
    // The engine keeps that state (publisher: handleBeforeFinalize) and checks again.
    const ready = await ig.check(account, state);
    expect(ready.status).toBe('ready');
    await ig.finalize(account, request, { ...state, ...ready.state });

    const creations = (await h.calls()).filter(
      (c) => c.method === 'POST' && c.path === `/v24.0/${account.externalId}/media`,
    );
    expect(creations.map((c) => c.body?.is_carousel_item ?? c.body?.media_type)).toEqual([
      'true',
      'true',
      'CAROUSEL',
      'CAROUSEL',
    ]);
    expect(await h.posts(account.externalId)).toMatchObject([{ kind: 'carousel', mediaCount: 2 }]);
  });

  it('refuses what Instagram refuses in feed images: the composer rule and the sandbox agree', async () => {
    Object.assign(heraldFiles, {
      '/media/tall.jpg': await jpeg(540, 960),
      '/media/wide.jpg': await jpeg(1000, 500),
      '/media/square.png': await png(600, 600),
      '/media/fine.jpg': await jpeg(800, 1000),
    });
    const account = await connect('Ada Picky');
    const served = async (path: string, mimeType: string, width: number, height: number) => ({
      ...(await imageMedia(path.slice(1), { width, height })),
      mimeType,
      url: `${h.heraldApi}/media${path}`,
    });
    const tall = await served('/tall.jpg', 'image/jpeg', 540, 960);
    const wide = await served('/wide.jpg', 'image/jpeg', 1000, 500);
    const pngFile = await served('/square.png', 'image/png', 600, 600);

    // The shared rule set (the composer and the post check) says so before publishing…
    expect(checkMediaFile(tall, INSTAGRAM_MEDIA_CONSTRAINTS)).toEqual([
      'Image proportions not allowed: 540x960px is 0.56:1; width ÷ height must be between 0.8:1 and 1.91:1. Crop it and upload it again.',
    ]);
    expect(checkMediaFile(wide, INSTAGRAM_MEDIA_CONSTRAINTS)).toHaveLength(1);
    expect(checkMediaFile(pngFile, INSTAGRAM_MEDIA_CONSTRAINTS)).toEqual([
      'File type image/png not allowed. Use: image/jpeg',
    ]);
    // …and the sandbox refuses the same files as Instagram does.
    for (const [file, code] of [
      [tall, 36003],
      [wide, 36003],
      [pngFile, 36001],
    ] as const) {
      const err = await expectPlatformError(ig.prepare(account, publishRequest('Picky', [file])));
      expect(err).toMatchObject({ kind: 'bad_request', details: { code } });
    }
    const fine = await served('/fine.jpg', 'image/jpeg', 800, 1000);
    expect(checkMediaFile(fine, INSTAGRAM_MEDIA_CONSTRAINTS)).toEqual([]);
    await publishInOneGo(ig, account, publishRequest('Fits', [fine]));
    expect(await h.posts(account.externalId)).toHaveLength(1);
  });

  it('reads only the media files Herald hands out, never a URL of the caller’s choosing', async () => {
    heraldFiles['/elsewhere/tall.jpg'] = await jpeg(540, 960);
    heraldHits.length = 0;
    const account = await connect('Ada Elsewhere');
    // The same tall image, at an address that is not Herald's media route (here the stand-in's
    // own origin, on this machine): its form is fine, and it is never fetched to be checked.
    const elsewhere = {
      ...(await imageMedia('tall.jpg', { width: 540, height: 960 })),
      url: `${heraldOrigin}/elsewhere/tall.jpg`,
    };
    await ig.prepare(account, publishRequest('Not looked at', [elsewhere]));
    expect(heraldHits).toEqual([]);
  });

  it('refuses a post without media before calling Instagram', async () => {
    const account = await connect('Ada Text');
    const err = await expectPlatformError(ig.prepare(account, publishRequest('Just words')));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/at least one image or video/);
  });

  it('reports a container that failed processing with Instagram’s words', async () => {
    const account = await connect('Ada Broken');
    await h.setKnob('Ada Broken', 'processing_fails', 1);
    const err = await expectPlatformError(
      publishInOneGo(ig, account, publishRequest('Will not work', [await videoMedia()])),
    );
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/^Instagram could not process the media: .*2207026/);
    expect(await h.posts(account.externalId)).toHaveLength(0);
  });

  it('stops at the publishing cap before media_publish', async () => {
    const account = await connect('Ada Capped');
    await h.setKnob('Ada Capped', 'publish_cap', 1);
    await publishInOneGo(ig, account, publishRequest('One', [await imageMedia()]));
    const err = await expectPlatformError(
      publishInOneGo(ig, account, publishRequest('Two', [await imageMedia()])),
    );
    expect(err.kind).toBe('rate_limited');
    expect(err.message).toMatch(/allows 1 posts/);
    expect(err.details.retryAfterSeconds).toBeGreaterThan(0);
    const publishes = (await h.calls()).filter((c) => c.path.endsWith('/media_publish'));
    expect(publishes.filter((c) => c.path.includes(account.externalId))).toHaveLength(1);
    expect(await h.posts(account.externalId)).toHaveLength(1);
  });

  it('maps throttling, a revoked token and a transient failure on prepare', async () => {
    const account = await connect('Ada Errors');
    const request = publishRequest('Errors first', [await imageMedia()]);

    await h.setKnob('Ada Errors', 'rate_limit_code', 613);
    await h.setKnob('Ada Errors', 'rate_limit_next', 1);
    const throttled = await expectPlatformError(ig.prepare(account, request));
    expect(throttled).toMatchObject({ kind: 'rate_limited', details: { code: 613 } });

    await h.setKnob('Ada Errors', 'fail_next', 1);
    const failed = await expectPlatformError(ig.prepare(account, request));
    expect(failed).toMatchObject({ kind: 'transient', details: { status: 500, code: 2 } });

    await h.setKnob('Ada Errors', 'token_revoked');
    const revoked = await expectPlatformError(ig.prepare(account, request));
    expect(revoked).toMatchObject({ kind: 'reauth', details: { code: 190 } });
    await h.setKnob('Ada Errors', 'token_revoked', false);

    // Prepare is safe to repeat: the retry publishes exactly once.
    await publishInOneGo(ig, account, request);
    expect(await h.posts(account.externalId)).toHaveLength(1);
  });

  it('turns a dropped media_publish into unknown_outcome, and reconcile finds the post', async () => {
    const account = await connect('Ada Dropped');
    const request = publishRequest('Did it go out?', [await imageMedia()]);
    let state = await ig.prepare(account, request);
    const ready = await ig.check(account, state);
    state = { ...state, ...ready.state };
    await h.setKnob('Ada Dropped', 'finalize_timeout');
    const err = await expectPlatformError(ig.finalize(account, request, state));
    expect(err.kind).toBe('unknown_outcome');

    const posts = await h.posts(account.externalId);
    expect(posts).toHaveLength(1);
    const found = await ig.reconcile!(account, request, state);
    expect(found).toEqual({
      externalId: posts[0]!.id,
      permalink: posts[0]!.permalink,
      extra: { shortcode: expect.any(String) },
    });
    expect(await h.posts(account.externalId)).toHaveLength(1);
  });

  it('treats a media_publish answering too late as unknown_outcome', async () => {
    const account = await connect('Ada Slow');
    const slow = createInstagramAdapter(h.settings, {
      ...FAST,
      finalizeTimeoutMs: 300,
    }).publishing!;
    const request = publishRequest('Slow network', [await imageMedia()]);
    const state = await slow.prepare(account, request);
    // The emulator publishes, then holds the answer past the adapter's 300 ms deadline.
    await h.setKnob('Ada Slow', 'finalize_timeout', 1500);
    const err = await expectPlatformError(slow.finalize(account, request, state));
    expect(err.kind).toBe('unknown_outcome');
    const found = await slow.reconcile!(account, request, state);
    expect(found?.externalId).toBe((await h.posts(account.externalId))[0]!.id);
  });

  it('reconciles to null when media_publish failed before publishing', async () => {
    const account = await connect('Ada Retry');
    const request = publishRequest('Second time lucky', [await imageMedia()]);
    const state = await ig.prepare(account, request);
    // The quota read is the first call of finalize; the next one is media_publish.
    await h.setKnob('Ada Retry', 'fail_next', 1);
    const quotaFailed = await expectPlatformError(ig.finalize(account, request, state));
    expect(quotaFailed.kind).toBe('transient');
    expect(await ig.reconcile!(account, request, state)).toBeNull();
    const published = await ig.finalize(account, request, state);
    expect(await h.posts(account.externalId)).toMatchObject([{ id: published.externalId }]);
    expect(await ig.reconcile!(account, request, state)).toMatchObject({
      externalId: published.externalId,
    });
  });

  it('lists comments with replies, replies as the account and deletes its reply', async () => {
    const account = await connect('Ada Talks');
    const post = await publishInOneGo(
      ig,
      account,
      publishRequest('Talk to me', [await imageMedia()]),
    );
    const first = await h.comment(post.externalId, 'grace', 'Lovely!');
    await h.comment(post.externalId, 'linus', 'Where is this?');
    await h.comment(first.id, 'linus', 'Agreed');

    const listed = await ig.listComments!(account, post.externalId, { limit: 25 });
    expect(listed.nextCursor).toBeNull();
    expect(listed.comments.map((c) => [c.message, c.from.name, c.isOwn])).toEqual([
      ['Lovely!', 'grace', false],
      ['Where is this?', 'linus', false],
    ]);
    expect(listed.comments[0]!.replies.map((r) => r.message)).toEqual(['Agreed']);
    expect(listed.comments[0]!.createdTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);

    const reply = await ig.reply!(
      account,
      { externalId: post.externalId, commentId: first.id },
      'Thank you!',
    );
    expect(reply).toMatchObject({
      message: 'Thank you!',
      isOwn: true,
      from: { id: account.externalId, name: account.username },
    });
    // A reply to a reply joins the top-level comment.
    const nested = listed.comments[0]!.replies[0]!;
    await ig.reply!(account, { externalId: post.externalId, commentId: nested.id }, 'Same here');
    let again = await ig.listComments!(account, post.externalId, { limit: 25 });
    expect(again.comments[0]!.replies.map((r) => [r.message, r.isOwn])).toEqual([
      ['Agreed', false],
      ['Thank you!', true],
      ['Same here', true],
    ]);

    await ig.deleteComment!(account, reply.id);
    again = await ig.listComments!(account, post.externalId, { limit: 25 });
    expect(again.comments[0]!.replies.map((r) => r.message)).toEqual(['Agreed', 'Same here']);
    expect(ig.editComment).toBeUndefined();
  });

  it('pages through comments with the cursor', async () => {
    const account = await connect('Ada Busy');
    const post = await publishInOneGo(ig, account, publishRequest('Busy', [await imageMedia()]));
    for (const n of [1, 2, 3]) await h.comment(post.externalId, `fan${n}`, `Comment ${n}`);
    const first = await ig.listComments!(account, post.externalId, { limit: 2 });
    expect(first.comments.map((c) => c.message)).toEqual(['Comment 1', 'Comment 2']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await ig.listComments!(account, post.externalId, {
      limit: 2,
      cursor: first.nextCursor!,
    });
    expect(second.comments.map((c) => c.message)).toEqual(['Comment 3']);
    expect(second.nextCursor).toBeNull();
  });
  // Last: it moves the emulator's clock a day on, which also expires the signed media URLs.
  it('says a container expired after 24 hours unpublished', async () => {
    const account = await connect('Ada Late');
    const state = await ig.prepare(account, publishRequest('Too late', [await imageMedia()]));
    await h.advanceClock(25 * 60 * 60);
    const err = await expectPlatformError(ig.check(account, state));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/24 hours/);
  });
});

// Last: it moves the emulator's clock two months on.
describe('Instagram tokens', () => {
  it('publishes with the stored Page token, which outlives the 60-day user token', async () => {
    const account = await connect('Ada Later');
    expect(account.secrets.pageToken).toEqual(expect.any(String));
    // Two months on, the user token has expired; the Page token has not.
    await h.advanceClock(61 * 86_400);
    // (Earlier tests moved the emulator's clock too: the URL stays valid well past it.)
    const photo = await imageMedia('late.jpg', { expiresInSeconds: 120 * 86_400 });
    await publishInOneGo(ig, account, publishRequest('Still here', [photo]));
    expect(await h.posts(account.externalId)).toMatchObject([{ text: 'Still here' }]);
  });
});
