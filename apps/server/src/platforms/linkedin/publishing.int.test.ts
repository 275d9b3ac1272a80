import { beforeAll, describe, expect, it } from 'vitest';
import { publishMediaOf } from '../../test/publish-media.js';
import { startSandboxHarness } from '../../test/graph-harness.js';
import { jpeg, largeMp4Stream, png } from '../../test/media-fixtures.js';
import { publishInOneGo } from '../publish-steps.js';
import type {
  ConnectableAccount,
  PublishingAdapter,
  PublishMedia,
  PublishRequest,
  StoredAccount,
} from '../types.js';
import { createLinkedInAdapter } from './adapter.js';
import { createLinkedInPublishApi } from './publish-api.js';
import { network } from './index.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));
let li: PublishingAdapter;
/** The same adapter with a short wait for the post's answer, for the answer that never comes. */
let impatient: PublishingAdapter;
beforeAll(async () => {
  // Both kinds publish the same way; only their sign-ins differ. Answers are waited for as in
  // production, so a busy machine's slow answer is not taken for a lost one.
  li = createLinkedInAdapter(h.settings).publishing!;
  impatient = createLinkedInAdapter(h.settings, { finalizeTimeoutMs: 1000 }).publishing!;
});

interface EmuPost {
  id: string;
  author: string;
  text: string;
  commentary: string;
  contentType: string;
  mediaCount: number;
}

const stored = (a: ConnectableAccount): StoredAccount => ({
  externalId: a.externalId,
  tokens: a.tokens,
  extra: a.extra ?? {},
  secrets: {},
});

/**
 * Connects a member (the personal profile sign-in) and, when `organization` is named, the Page
 * they administer through the second (Page) sign-in.
 */
async function connect(name: string, organization = '') {
  const signIn = async (kind: 'person' | 'organization') => {
    const { code } = await h.authorize({
      fields: { account: name, organizations: organization },
      kind,
    });
    return h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: '', kind });
  };
  const [person] = await signIn('person');
  const [page] = organization ? await signIn('organization') : [];
  return { person: stored(person!), page: page ? stored(page) : null };
}

async function emu(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${h.base}/_emu/${path}`, {
    method,
    ...(body
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : {}),
  });
  if (!res.ok) throw new Error(`_emu/${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const setNumber = (account: string, knob: string, value: number) =>
  emu('POST', 'scenario', { account, knob, value });

const posts = async (author: string) =>
  ((await emu('GET', `posts?author=${encodeURIComponent(author)}`)) as { posts: EmuPost[] }).posts;

const request = (text: string, media: PublishMedia[] = []): PublishRequest => ({
  text,
  media,
  idempotencyKey: `key-${text}`,
});

const image = async (bytes: Promise<Buffer>, mimeType = 'image/jpeg') =>
  publishMediaOf(await bytes, { kind: 'image', mimeType });

async function bytesOf(stream: NodeJS.ReadableStream) {
  const parts: Buffer[] = [];
  for await (const p of stream as AsyncIterable<Buffer>) parts.push(p);
  return Buffer.concat(parts);
}

describe('publishing to the LinkedIn sandbox', () => {
  it('publishes text in little-text format; the id comes from x-restli-id', async () => {
    const { person } = await connect('Text Member');
    const text = 'Launch (beta) with @team_a & #herald — 50% off *today*';
    const done = await publishInOneGo(li, person, request(text));
    expect(done.externalId).toMatch(/^urn:li:share:\d{19}$/);
    expect(done.permalink).toBe(`https://www.linkedin.com/feed/update/${done.externalId}`);
    const [post] = await posts(person.externalId);
    expect(post).toMatchObject({ id: done.externalId, text, contentType: 'none', mediaCount: 0 });
    expect(post!.commentary).toBe(
      'Launch \\(beta\\) with \\@team\\_a & #herald — 50% off \\*today\\*',
    );
    expect(await posts(person.externalId)).toHaveLength(1);
  });

  it('posts a member’s image once its upload is accepted, never reading the Images API (a member token gets 403)', async () => {
    const { person } = await connect('Image Member');
    const photo = await image(jpeg(640, 480));
    const done = await publishInOneGo(li, person, request('One photo', [photo]));
    const [uploaded] = done.state.media as Array<{ urn: string; ready: boolean }>;
    expect(uploaded).toMatchObject({ urn: expect.stringMatching(/^urn:li:image:/), ready: true });
    const calls = await h.calls();
    expect(calls.filter((c) => c.path.startsWith('/upload/image/'))).toHaveLength(1);
    expect(calls.some((c) => c.path.startsWith('/rest/images/urn'))).toBe(false);
    expect(await posts(person.externalId)).toEqual([
      expect.objectContaining({ contentType: 'media', mediaCount: 1 }),
    ]);
    // What LinkedIn answers a member token that reads an image: a refusal, not a dead token.
    const read = await expectPlatformError(
      createLinkedInPublishApi(h.settings).imageStatus(person.tokens.accessToken, uploaded!.urn),
    );
    expect(read).toMatchObject({ kind: 'bad_request', details: { status: 403, code: 100 } });
  });

  it('checks a Page’s image is AVAILABLE before posting it', async () => {
    const { page } = await connect('Image Admin', 'Image Co');
    const done = await publishInOneGo(
      li,
      page!,
      request('Page photo', [await image(jpeg(64, 64))]),
    );
    const [uploaded] = done.state.media as Array<{ urn: string; ready: boolean }>;
    expect(uploaded).toMatchObject({ ready: true });
    const calls = await h.calls();
    expect(calls.some((c) => c.path === `/rest/images/${encodeURIComponent(uploaded!.urn)}`)).toBe(
      true,
    );
  });

  it('posts several images as MultiImage, and refuses 21 before uploading', async () => {
    const { person } = await connect('Gallery Member');
    const files = [
      await image(jpeg(320, 240)),
      await image(png(320, 240), 'image/png'),
      await image(jpeg(100, 100)),
    ];
    await publishInOneGo(li, person, request('Three photos', files));
    expect(await posts(person.externalId)).toEqual([
      expect.objectContaining({ contentType: 'multiImage', mediaCount: 3 }),
    ]);
    const before = (await h.calls()).length;
    const many = Array.from({ length: 21 }, () => files[0]!);
    expect((await expectPlatformError(li.prepare(person, request('Too many', many)))).kind).toBe(
      'bad_request',
    );
    expect((await h.calls()).length).toBe(before);
  });

  it('uploads a video in the parts LinkedIn asks for and waits for processing', async () => {
    const { person } = await connect('Video Member');
    await setNumber('Video Member', 'processing_ms', 300);
    // LinkedIn takes videos of 3 s to 30 minutes: a 4-second clip.
    const clip = publishMediaOf(await bytesOf(largeMp4Stream(5 * 1024 * 1024, 4)), {
      kind: 'video',
      mimeType: 'video/mp4',
      durationSec: 4,
    });
    const done = await publishInOneGo(li, person, request('A video', [clip]));
    expect(done.checks).toBeGreaterThan(1);
    expect(done.externalId).toMatch(/^urn:li:ugcPost:/);
    // Two parts: 4 MB and the rest, each read as its own range.
    expect(clip.opened).toEqual([
      { start: 0, end: 4 * 1024 * 1024 - 1 },
      { start: 4 * 1024 * 1024, end: 5 * 1024 * 1024 - 1 },
    ]);
    const finalize = (await h.calls()).find(
      (c) => c.path === '/rest/videos' && c.query.action === 'finalizeUpload',
    ) as { body: { finalizeUploadRequest: { uploadedPartIds: string[] } } } | undefined;
    expect(finalize?.body.finalizeUploadRequest.uploadedPartIds).toHaveLength(2);
    expect(await posts(person.externalId)).toEqual([
      expect.objectContaining({ contentType: 'media', mediaCount: 1 }),
    ]);
  });

  it('refuses a video beside an image, and a video under 75 KB in LinkedIn’s words', async () => {
    const { person } = await connect('Small Video');
    const tiny = publishMediaOf(Buffer.alloc(10_000, 1), { kind: 'video', mimeType: 'video/mp4' });
    const photo = await image(jpeg(64, 64));
    expect(
      (await expectPlatformError(li.prepare(person, request('mix', [photo, tiny])))).message,
    ).toMatch(/one video per post/);
    const err = await expectPlatformError(li.prepare(person, request('tiny', [tiny])));
    expect(err).toMatchObject({ kind: 'bad_request', details: { status: 422 } });
    expect(err.message).toMatch(/fileSizeBytes/);
  });

  it('publishes as an organization page the member administers', async () => {
    const { page } = await connect('Page Admin', 'Herald Labs');
    const done = await publishInOneGo(
      li,
      page!,
      request('From the page', [await image(jpeg(64, 64))]),
    );
    expect(await posts(page!.externalId)).toEqual([
      expect.objectContaining({ id: done.externalId, author: page!.externalId, mediaCount: 1 }),
    ]);
  });

  it('reports failed video processing as a bad request', async () => {
    const { person } = await connect('Broken Video Member');
    await setNumber('Broken Video Member', 'processing_ms', 1);
    await h.setKnob('Broken Video Member', 'processing_fails');
    const clip = publishMediaOf(Buffer.alloc(100_000, 7), { kind: 'video', mimeType: 'video/mp4' });
    const err = await expectPlatformError(publishInOneGo(li, person, request('broken', [clip])));
    expect(err).toMatchObject({
      kind: 'bad_request',
      message: expect.stringMatching(/could not process the video/),
    });
  });
});

describe('LinkedIn errors while publishing', () => {
  it('maps 429 to rate_limited with the wait until the daily window resets', async () => {
    const { person } = await connect('Throttled Member');
    await h.setKnob('Throttled Member', 'rate_limit_next');
    const err = await expectPlatformError(publishInOneGo(li, person, request('throttled')));
    expect(err.kind).toBe('rate_limited');
    expect(err.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(err.details.retryAfterSeconds).toBeLessThanOrEqual(86_400);
    expect(await posts(person.externalId)).toEqual([]);
  });

  it('enforces the daily cap (publish_cap replaces it)', async () => {
    const { person } = await connect('Capped Member');
    await setNumber('Capped Member', 'publish_cap', 1);
    await publishInOneGo(li, person, request('first of the day'));
    expect(
      (await expectPlatformError(publishInOneGo(li, person, request('second of the day')))).kind,
    ).toBe('rate_limited');
  });

  it('needs a reconnect when the token is revoked', async () => {
    const { person } = await connect('Revoked Member');
    await h.setKnob('Revoked Member', 'token_revoked');
    const err = await expectPlatformError(
      li.prepare(person, request('x', [await image(jpeg(64, 64))])),
    );
    expect(err).toMatchObject({ kind: 'reauth', details: { status: 401, code: 65601 } });
  });

  it('makes a 500 during prepare transient; prepare simply runs again', async () => {
    const { person } = await connect('Flaky Member');
    await setNumber('Flaky Member', 'fail_next', 1);
    const photo = await image(jpeg(64, 64));
    const err = await expectPlatformError(li.prepare(person, request('flaky', [photo])));
    expect(err).toMatchObject({ kind: 'transient', details: { status: 500 } });
    await publishInOneGo(li, person, request('flaky', [photo]));
    expect(await posts(person.externalId)).toHaveLength(1);
  });

  it('makes a 500 on the post an unknown outcome; reconcile says it was not published', async () => {
    const { page } = await connect('Outage Admin', 'Outage Org');
    await setNumber('Outage Admin', 'fail_next', 1);
    const err = await expectPlatformError(publishInOneGo(li, page!, request('during an outage')));
    expect(err.kind).toBe('unknown_outcome');
    expect(await li.reconcile!(page!, request('during an outage'), {})).toBeNull();
  });

  it('finalize_timeout: the post is made, the answer lost; reconcile finds it for a page', async () => {
    const { page } = await connect('Timeout Admin', 'Timeout Org');
    await setNumber('Timeout Admin', 'finalize_timeout', 5);
    const photo = await image(jpeg(64, 64));
    const req = request('lost answer (page)', [photo]);
    const text = request('lost #answer, no media (page)');
    const state = await li.prepare(page!, req);
    await li.check(page!, state);
    expect((await expectPlatformError(li.finalize(page!, req, state))).kind).toBe(
      'unknown_outcome',
    );
    const [post] = await posts(page!.externalId);
    expect(await li.reconcile!(page!, req, state)).toEqual({
      externalId: post!.id,
      permalink: `https://www.linkedin.com/feed/update/${post!.id}`,
    });
    expect(await li.reconcile!(page!, request('lost answer (page)'), {})).toBeNull();

    await setNumber('Timeout Admin', 'finalize_timeout', 5);
    expect((await expectPlatformError(publishInOneGo(li, page!, text))).kind).toBe(
      'unknown_outcome',
    );
    const latest = (await posts(page!.externalId)).at(-1)!;
    expect(latest.text).toBe('lost #answer, no media (page)');
    expect((await li.reconcile!(page!, text, {}))?.externalId).toBe(latest.id);
  });

  it('finalize_timeout for a member: times out; reconcile cannot tell without r_member_social', async () => {
    const { person } = await connect('Hanging Member');
    // The emulator makes the post, then holds its answer past the adapter's wait.
    await setNumber('Hanging Member', 'finalize_timeout', 4000);
    const err = await expectPlatformError(
      publishInOneGo(impatient, person, request('hanging (member)')),
    );
    expect(err).toMatchObject({ kind: 'unknown_outcome', details: { code: 'timeout' } });
    // On a busy machine the wait may end before the emulator has stored the post.
    for (let i = 0; i < 100 && (await posts(person.externalId)).length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await expectPlatformError(
      li.reconcile!(person, request('hanging (member)'), {}),
    );
    expect(refused.kind).toBe('unknown_outcome');
    expect(refused.message).toMatch(/does not let Herald read/);
    await h.setKnob('Hanging Member', 'r_member_social');
    const found = await li.reconcile!(person, request('hanging (member)'), {});
    expect(found?.externalId).toBe((await posts(person.externalId))[0]!.id);
  });

  it('refuses duplicates and over-long commentary as bad requests', async () => {
    const { person } = await connect('Repeating Member');
    await publishInOneGo(li, person, request('Only once'));
    const dup = await expectPlatformError(publishInOneGo(li, person, request('Only once')));
    expect(dup).toMatchObject({ kind: 'bad_request', details: { status: 422 } });
    expect(dup.message).toMatch(/duplicate of urn:li:share:/);
    const long = await expectPlatformError(publishInOneGo(li, person, request('a'.repeat(3001))));
    expect(long.message).toMatch(/commentary/);
  });
});

describe('LinkedIn comments', () => {
  it('lists comments with replies, replies, edits and deletes its own', async () => {
    const { page } = await connect('Community Admin', 'Community Co');
    const post = await publishInOneGo(li, page!, request('Tell us what you think'));
    const grace = (await emu('POST', 'comments', {
      postId: post.externalId,
      fromName: 'Grace',
      message: 'Nice!',
      likes: 2,
    })) as { id: string };
    await emu('POST', 'comments', {
      postId: post.externalId,
      parentId: grace.id,
      fromName: 'Linus',
      message: '+1',
    });

    const listed = await li.listComments!(page!, post.externalId, { limit: 10 });
    expect(listed).toEqual({
      nextCursor: null,
      comments: [
        expect.objectContaining({
          id: grace.id,
          message: 'Nice!',
          likes: 2,
          isOwn: false,
          from: expect.objectContaining({ name: 'LinkedIn member' }),
          replies: [expect.objectContaining({ message: '+1', isOwn: false })],
        }),
      ],
    });

    const mine = await li.reply!(
      page!,
      { externalId: post.externalId, commentId: grace.id },
      'Thank you',
    );
    expect(mine).toMatchObject({
      isOwn: true,
      message: 'Thank you',
      from: { name: 'Community Co' },
    });
    await li.editComment!(page!, mine.id, 'Thank you, Grace');
    let replies = (await li.listComments!(page!, post.externalId, { limit: 10 })).comments[0]!
      .replies;
    expect(replies.map((r) => [r.message, r.isOwn])).toEqual([
      ['+1', false],
      ['Thank you, Grace', true],
    ]);
    await li.deleteComment!(page!, mine.id);
    await li.deleteComment!(page!, mine.id);
    replies = (await li.listComments!(page!, post.externalId, { limit: 10 })).comments[0]!.replies;
    expect(replies.map((r) => r.message)).toEqual(['+1']);

    const top = await li.reply!(
      page!,
      { externalId: post.externalId, commentId: '' },
      'Pinned note',
    );
    expect(top.id).toMatch(/^urn:li:comment:\(urn:li:share:\d+,\d+\)$/);
    const notMine = await expectPlatformError(li.editComment!(page!, grace.id, 'hijacked'));
    expect(notMine).toMatchObject({ kind: 'bad_request', details: { status: 403 } });
  });

  it('pages comments with start/count', async () => {
    const { page } = await connect('Busy Admin', 'Busy Co');
    const post = await publishInOneGo(li, page!, request('Busy post'));
    for (let i = 0; i < 12; i++)
      await emu('POST', 'comments', {
        postId: post.externalId,
        fromName: `Fan ${i}`,
        message: `#${i}`,
      });
    const first = await li.listComments!(page!, post.externalId, { limit: 10 });
    expect(first.comments.map((c) => c.message)[0]).toBe('#0');
    expect(first.nextCursor).toBe('10');
    const second = await li.listComments!(page!, post.externalId, { limit: 10, cursor: '10' });
    expect(second).toMatchObject({ nextCursor: null });
    expect(second.comments.map((c) => c.message)).toEqual(['#10', '#11']);
  });

  it('explains that a member’s own comments need LinkedIn’s approval to be read', async () => {
    const { person } = await connect('Private Member');
    const post = await publishInOneGo(li, person, request('Personal post'));
    const err = await expectPlatformError(li.listComments!(person, post.externalId, { limit: 10 }));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/approved apps/);
    await h.setKnob('Private Member', 'r_member_social');
    expect((await li.listComments!(person, post.externalId, { limit: 10 })).comments).toEqual([]);
  });
});
