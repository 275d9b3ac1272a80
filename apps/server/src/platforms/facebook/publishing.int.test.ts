import { beforeAll, describe, expect, it } from 'vitest';
import { startSandboxHarness } from '../../test/graph-harness.js';
import { imageMedia, publishRequest, testMedia, videoMedia } from '../../test/publish-media.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PublishingAdapter, StoredAccount } from '../types.js';
import { createFacebookAdapter } from './adapter.js';
import { network } from './index.js';
import { firstLink } from './publishing.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));
let fb: PublishingAdapter;
beforeAll(async () => {
  fb = createFacebookAdapter(h.settings, { finalizeTimeoutMs: 3000 }).publishing!;
});

/** Connects `name`, who manages one Page called `${name} Page`. */
async function connect(name: string): Promise<StoredAccount & { pageName: string }> {
  const { code } = await h.authorize({ fields: { account: name, pages: `${name} Page` } });
  const [page] = await h.adapter.connect({
    code: code!,
    redirectUri: h.redirectUri,
    codeVerifier: '',
  });
  return {
    externalId: page!.externalId,
    tokens: page!.tokens,
    extra: page!.extra ?? {},
    secrets: page!.secrets ?? {},
    pageName: page!.name!,
  };
}

const bodyOf = async (path: string) =>
  (await h.calls()).filter((c) => c.method === 'POST' && c.path === path).map((c) => c.body);

describe('Facebook Page publishing against the Graph emulator', () => {
  it('publishes a text post and reads its permalink', async () => {
    const page = await connect('Bea Text');
    const result = await publishInOneGo(fb, page, publishRequest('Open today from 9 to 5.'));
    expect(result.externalId).toMatch(new RegExp(`^${page.externalId}_\\d{16}$`));
    expect(result.permalink).toBe(
      `https://www.facebook.com/${page.externalId}/posts/${result.externalId.split('_')[1]}`,
    );
    expect(await h.posts(page.externalId)).toMatchObject([
      {
        id: result.externalId,
        network: 'facebook',
        accountName: page.pageName,
        kind: 'status',
        text: 'Open today from 9 to 5.',
        mediaCount: 0,
      },
    ]);
  });

  it('publishes a link post with the first address as its link', async () => {
    const page = await connect('Bea Link');
    const text = 'Our new menu: https://example.com/menu?lang=en. Come by!';
    await publishInOneGo(fb, page, publishRequest(text));
    expect(await bodyOf(`/v24.0/${page.externalId}/feed`)).toEqual([
      { message: text, link: 'https://example.com/menu?lang=en' },
    ]);
    expect(await h.posts(page.externalId)).toMatchObject([{ kind: 'link', mediaCount: 0 }]);
    expect(firstLink('see (https://a.example/x)!')).toBe('https://a.example/x');
  });

  it('publishes a single photo as one post, by its post id', async () => {
    const page = await connect('Bea Photo');
    const photo = await imageMedia();
    const result = await publishInOneGo(fb, page, publishRequest('Fresh bread', [photo]));
    expect(result.externalId).toMatch(new RegExp(`^${page.externalId}_`));
    expect(result.permalink).toMatch(/^https:\/\/www\.facebook\.com\//);
    expect(await bodyOf(`/v24.0/${page.externalId}/photos`)).toEqual([
      { url: photo.url, caption: 'Fresh bread', published: 'true' },
    ]);
    expect(await h.posts(page.externalId)).toMatchObject([
      { id: result.externalId, kind: 'photo', mediaCount: 1, text: 'Fresh bread' },
    ]);
  });

  it('publishes several photos as one post with unpublished photos attached', async () => {
    const page = await connect('Bea Album');
    const media = [await imageMedia('1.jpg'), await imageMedia('2.jpg'), await imageMedia('3.jpg')];
    const request = publishRequest('Three loaves', media);
    const state = await fb.prepare(page, request);
    expect(state.photoIds).toHaveLength(3);
    // Preparing made nothing visible.
    expect(await h.posts(page.externalId)).toHaveLength(0);
    expect(await fb.check(page, state)).toEqual({ status: 'ready' });
    const result = await fb.finalize(page, request, state);

    expect(await h.posts(page.externalId)).toMatchObject([
      { id: result.externalId, kind: 'album', mediaCount: 3, text: 'Three loaves' },
    ]);
    const [feed] = await bodyOf(`/v24.0/${page.externalId}/feed`);
    expect(JSON.parse(feed!.attached_media as string)).toEqual(
      (state.photoIds as string[]).map((id) => ({ media_fbid: id })),
    );
  });

  it('uploads a video with the Resumable Upload API on graph.facebook.com, then publishes its handle', async () => {
    const page = await connect('Bea Video');
    const before = (await h.calls()).length;
    const clip = testMedia('video', { size: 300_000 });
    const request = publishRequest('Behind the counter', [clip]);
    const state = await fb.prepare(page, request);
    // Preparing starts the session only (kept on the target before any byte goes).
    const { session } = state.upload as { session: string };
    expect(session).toMatch(/^upload:[\w-]+\?sig=[\w-]+$/);
    expect(clip.opened).toEqual([]);
    const checked = await fb.check(page, state, request);
    const { handle } = (checked.state as { upload: { handle: string } }).upload;
    expect(handle).toMatch(/^2:[^:]+:video\/mp4:/);
    const result = await fb.finalize(page, request, { ...state, ...checked.state });

    expect(result.externalId).toMatch(/^\d{16}$/);
    expect(result.permalink).toBe(
      `https://www.facebook.com/${page.externalId}/videos/${result.externalId}/`,
    );
    const calls = (await h.calls()).slice(before);
    const [, sessionId] = /^upload:([^?]+)/.exec(session)!;
    // Start the session, read its offset, send every byte, publish the handle: all on Graph's host.
    expect(
      calls
        .filter((c) => /uploads|upload:|videos/.test(c.path))
        .map((c) => [c.method, c.path, c.body]),
    ).toEqual([
      [
        'POST',
        '/v24.0/herald-sandbox/uploads',
        { file_name: 'clip.mp4', file_length: '300000', file_type: 'video/mp4' },
      ],
      ['GET', `/v24.0/upload:${sessionId}`, null],
      ['POST', `/v24.0/upload:${sessionId}`, { bytes: '300000' }],
      [
        'POST',
        `/v24.0/${page.externalId}/videos`,
        { fbuploader_video_file_chunk: handle, description: 'Behind the counter' },
      ],
    ]);
    expect(calls.some((c) => c.body && 'file_url' in c.body)).toBe(false);
    expect(await h.posts(page.externalId)).toMatchObject([
      { id: result.externalId, kind: 'video', mediaCount: 1 },
    ]);
  });

  it('resumes an interrupted upload from the offset Facebook reports', async () => {
    const page = await connect('Bea Cut');
    const clip = testMedia('video', { size: 200_000 });
    const request = publishRequest('Cut off mid-way', [clip]);
    await h.setKnob('Bea Cut', 'upload_interrupt_bytes', 70_000);
    const before = (await h.calls()).length;
    const result = await publishInOneGo(fb, page, request);

    // The bytes after the 70,000 Facebook kept, not the whole file again.
    expect(clip.opened).toEqual([
      { start: 0, end: 199_999 },
      { start: 70_000, end: 199_999 },
    ]);
    const sent = (await h.calls())
      .slice(before)
      .filter((c) => c.method === 'POST' && c.path.includes('/upload:'))
      .map((c) => c.body);
    expect(sent).toEqual([{ bytes: '200000' }, { bytes: '130000' }]);
    expect(await h.posts(page.externalId)).toMatchObject([
      { id: result.externalId, kind: 'video', text: 'Cut off mid-way' },
    ]);
  });

  it('goes on with the session a stopped run left, from the offset Facebook holds', async () => {
    const page = await connect('Bea Resume');
    const clip = testMedia('video', { size: 120_000 });
    const request = publishRequest('Picked up again', [clip]);
    const state = await fb.prepare(page, request);
    // The run that prepared stopped after sending the first 50,000 bytes.
    const session = (state.upload as { session: string }).session;
    const partial = await fetch(`${h.base}/v24.0/${session}`, {
      method: 'POST',
      headers: {
        authorization: `OAuth ${page.secrets.userToken}`,
        file_offset: '0',
        'content-type': 'application/octet-stream',
      },
      body: clip.bytes.subarray(0, 50_000),
    });
    expect(await partial.json()).toEqual({ id: session, file_offset: 50_000 });

    const checked = await fb.check(page, state, request);
    expect(clip.opened).toEqual([{ start: 50_000, end: 119_999 }]);
    expect(checked).toMatchObject({ status: 'ready', state: { upload: { session } } });
    const result = await fb.finalize(page, request, { ...state, ...checked.state });
    expect(await h.posts(page.externalId)).toMatchObject([
      { id: result.externalId, kind: 'video' },
    ]);
  });

  it("refuses a video Facebook's upload does not take, before anything is sent", async () => {
    const page = await connect('Bea Mov');
    const mov = { ...testMedia('video'), mimeType: 'video/quicktime', fileName: 'clip.mov' };
    const err = await expectPlatformError(fb.prepare(page, publishRequest('A MOV', [mov])));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/MP4 files only/);
  });

  it('refuses photos mixed with a video, and an empty post', async () => {
    const page = await connect('Bea Mixed');
    const mixed = await expectPlatformError(
      fb.prepare(page, publishRequest('Both', [await imageMedia(), await videoMedia()])),
    );
    expect(mixed.kind).toBe('bad_request');
    expect(mixed.message).toMatch(/photos or one video/);
    const empty = await expectPlatformError(fb.prepare(page, publishRequest('  ')));
    expect(empty.kind).toBe('bad_request');
  });

  it('maps a throttle, a duplicate and a revoked token on the visible call', async () => {
    const page = await connect('Bea Errors');
    const request = publishRequest('Same words twice');
    const state = await fb.prepare(page, request);

    await h.setKnob('Bea Errors', 'rate_limit_code', 32);
    await h.setKnob('Bea Errors', 'rate_limit_next', 1);
    const throttled = await expectPlatformError(fb.finalize(page, request, state));
    expect(throttled).toMatchObject({ kind: 'rate_limited', details: { code: 32 } });

    await fb.finalize(page, request, state);
    await h.setKnob('Bea Errors', 'duplicate_reject');
    const duplicate = await expectPlatformError(fb.finalize(page, request, state));
    expect(duplicate.kind).toBe('bad_request');
    expect(duplicate.message).toMatch(/identical to the last one you posted/);

    await h.setKnob('Bea Errors', 'token_revoked');
    const revoked = await expectPlatformError(
      fb.finalize(page, publishRequest('Other words'), state),
    );
    expect(revoked).toMatchObject({ kind: 'reauth', details: { code: 190 } });
    await h.setKnob('Bea Errors', 'token_revoked', false);
    expect(await h.posts(page.externalId)).toHaveLength(1);
  });

  it('turns a transient failure of /photos while preparing into transient', async () => {
    const page = await connect('Bea Flaky');
    const request = publishRequest('Two photos', [await imageMedia(), await imageMedia()]);
    await h.setKnob('Bea Flaky', 'fail_next', 1);
    const failed = await expectPlatformError(fb.prepare(page, request));
    expect(failed).toMatchObject({ kind: 'transient', details: { status: 500, code: 2 } });
    await publishInOneGo(fb, page, request);
    expect(await h.posts(page.externalId)).toMatchObject([{ kind: 'album', mediaCount: 2 }]);
  });

  it('reconciles a dropped /feed answer to the post it made', async () => {
    const page = await connect('Bea Dropped');
    const request = publishRequest('Did it post?');
    const state = await fb.prepare(page, request);
    await h.setKnob('Bea Dropped', 'finalize_timeout');
    const err = await expectPlatformError(fb.finalize(page, request, state));
    expect(err.kind).toBe('unknown_outcome');
    const [made] = await h.posts(page.externalId);
    expect(await fb.reconcile!(page, request, state)).toEqual({
      externalId: made!.id,
      permalink: made!.permalink,
    });
  });

  it('reconciles a dropped /videos answer through the Page videos', async () => {
    const page = await connect('Bea Clip');
    const request = publishRequest('Clip that went missing', [await videoMedia()]);
    const prepared = await fb.prepare(page, request);
    const state = { ...prepared, ...(await fb.check(page, prepared, request)).state };
    await h.setKnob('Bea Clip', 'finalize_timeout');
    expect((await expectPlatformError(fb.finalize(page, request, state))).kind).toBe(
      'unknown_outcome',
    );
    const found = await fb.reconcile!(page, request, state);
    const [made] = await h.posts(page.externalId);
    expect(found).toEqual({
      externalId: made!.id,
      permalink: `https://www.facebook.com/${page.externalId}/videos/${made!.id}/`,
    });
  });

  it('reconciles to null when the visible call failed before posting', async () => {
    const page = await connect('Bea Nothing');
    const request = publishRequest('Never made it');
    const state = await fb.prepare(page, request);
    await h.setKnob('Bea Nothing', 'fail_next', 1);
    // A 5xx on the visible call could have posted: unknown until reconciled.
    expect((await expectPlatformError(fb.finalize(page, request, state))).kind).toBe(
      'unknown_outcome',
    );
    expect(await fb.reconcile!(page, request, state)).toBeNull();
    await fb.finalize(page, request, state);
    expect(await h.posts(page.externalId)).toHaveLength(1);
  });

  it('lists, replies to, edits and deletes comments as the Page', async () => {
    const page = await connect('Bea Chat');
    const post = await publishInOneGo(fb, page, publishRequest('Questions welcome'));
    const question = await h.comment(post.externalId, 'Grace Hopper', 'Are you open Sunday?');
    await h.comment(post.externalId, 'Linus', 'Great bread');

    let listed = await fb.listComments!(page, post.externalId, { limit: 25 });
    expect(listed.comments.map((c) => [c.message, c.from.name, c.isOwn])).toEqual([
      ['Are you open Sunday?', 'Grace Hopper', false],
      ['Great bread', 'Linus', false],
    ]);
    expect(question.id).toMatch(new RegExp(`^${post.externalId.split('_')[1]}_\\d+$`));

    const reply = await fb.reply!(
      page,
      { externalId: post.externalId, commentId: question.id },
      'Yes, 10 to 2.',
    );
    expect(reply).toMatchObject({
      message: 'Yes, 10 to 2.',
      isOwn: true,
      from: { id: page.externalId, name: page.pageName },
    });
    await fb.editComment!(page, reply.id, 'Yes, 10 to 3.');
    listed = await fb.listComments!(page, post.externalId, { limit: 25 });
    expect(listed.comments[0]!.replies.map((r) => [r.message, r.isOwn])).toEqual([
      ['Yes, 10 to 3.', true],
    ]);

    const pageReply = listed.comments[0]!.replies[0]!;
    const err = await expectPlatformError(
      fb.editComment!(page, listed.comments[1]!.id, 'Not mine to edit'),
    );
    expect(err.kind).toBe('bad_request');

    await fb.deleteComment!(page, pageReply.id);
    listed = await fb.listComments!(page, post.externalId, { limit: 25 });
    expect(listed.comments[0]!.replies).toEqual([]);
    // Deleting a top-level comment takes its replies with it.
    await fb.deleteComment!(page, question.id);
    listed = await fb.listComments!(page, post.externalId, { limit: 25 });
    expect(listed.comments.map((c) => c.message)).toEqual(['Great bread']);
  });
});
