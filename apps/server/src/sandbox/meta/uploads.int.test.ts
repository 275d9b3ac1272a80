import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { network as facebook } from '../../platforms/facebook/index.js';
import type { MetaUrls } from '../../platforms/meta/urls.js';
import { startSandboxHarness, type SandboxHarness } from '../../test/graph-harness.js';

/**
 * The Resumable Upload API and the video publish as raw HTTP: sessions, offsets, handles, and
 * Meta's refusals. The adapter's use of them is tested in platforms/facebook.
 */
let h: SandboxHarness<MetaUrls>;
beforeAll(async () => {
  h = await startSandboxHarness(facebook);
});
afterAll(async () => {
  await h?.close();
});

const FILE = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypmp42'),
  Buffer.alloc(4000, 7),
]);

async function connect(name: string) {
  const { code } = await h.authorize({ fields: { account: name, pages: `${name} Page` } });
  const [page] = await h.adapter.connect({
    code: code!,
    redirectUri: h.redirectUri,
    codeVerifier: '',
  });
  return {
    pageId: page!.externalId,
    pageToken: page!.tokens.accessToken,
    userToken: page!.secrets!.userToken!,
  };
}

async function call(
  method: 'GET' | 'POST',
  path: string,
  init: {
    token?: string;
    headers?: Record<string, string>;
    form?: Record<string, string>;
    bytes?: Buffer;
  } = {},
) {
  const res = await fetch(`${h.base}/v24.0/${path}`, {
    method,
    headers: {
      ...(init.token ? { authorization: `OAuth ${init.token}` } : {}),
      ...(init.bytes ? { 'content-type': 'application/octet-stream' } : {}),
      ...init.headers,
    },
    body: init.bytes ?? (init.form ? new URLSearchParams(init.form) : undefined),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const startSession = (token: string, form: Record<string, string> = {}) =>
  call('POST', 'herald-sandbox/uploads', {
    token,
    form: {
      file_name: 'clip.mp4',
      file_length: String(FILE.length),
      file_type: 'video/mp4',
      ...form,
    },
  });

const send = (session: string, token: string, offset: number, bytes: Buffer) =>
  call('POST', session, { token, headers: { file_offset: String(offset) }, bytes });

describe('Graph emulator: Resumable Upload API and Page videos', () => {
  it('takes a file in two parts from the offsets it reports, and publishes its handle', async () => {
    const { pageId, pageToken, userToken } = await connect('Ula Parts');
    const started = await startSession(userToken);
    expect(started.status).toBe(200);
    const session = started.body.id as string;
    expect(session).toMatch(/^upload:[\w-]+\?sig=[\w-]+$/);
    expect((await call('GET', session, { token: userToken })).body).toEqual({
      id: session,
      file_offset: 0,
    });

    expect((await send(session, userToken, 0, FILE.subarray(0, 1000))).body).toEqual({
      id: session,
      file_offset: 1000,
    });
    const done = await send(session, userToken, 1000, FILE.subarray(1000));
    expect(done.body).toEqual({ h: expect.stringMatching(/^2:Y2xpcC5tcDQ=:video\/mp4:/) });

    const video = await call('POST', `${pageId}/videos`, {
      token: pageToken,
      form: { fbuploader_video_file_chunk: done.body.h, description: 'In two parts' },
    });
    expect(video).toEqual({ status: 200, body: { id: expect.stringMatching(/^\d{16}$/) } });
    expect(await h.posts(pageId)).toMatchObject([
      { id: video.body.id, kind: 'video', text: 'In two parts' },
    ]);
  });

  it('refuses the old way: a video by file_url has no file', async () => {
    const { pageId, pageToken } = await connect('Ula Url');
    const byUrl = await call('POST', `${pageId}/videos`, {
      token: pageToken,
      form: { file_url: 'https://example.com/clip.mp4?exp=4102444800&sig=x', description: 'Old' },
    });
    expect(byUrl.status).toBe(400);
    expect(byUrl.body.error).toMatchObject({ code: 324, message: '(#324) Requires upload file' });
    const unknown = await call('POST', `${pageId}/videos`, {
      token: pageToken,
      form: { fbuploader_video_file_chunk: '2:bm9uZQ==:video/mp4:nothing:e:4102444800:x' },
    });
    expect(unknown.body.error).toMatchObject({ code: 390, error_subcode: 1363030 });
    expect(await h.posts(pageId)).toEqual([]);
  });

  it('refuses a session for another app, a missing length and a type the API does not take', async () => {
    const { userToken } = await connect('Ula Start');
    const otherApp = await call('POST', '1234567890/uploads', {
      token: userToken,
      form: { file_name: 'a.mp4', file_length: '10', file_type: 'video/mp4' },
    });
    expect(otherApp.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await startSession(userToken, { file_length: '' })).body.error).toMatchObject({
      code: 100,
      message: '(#100) Missing parameter: file_length',
    });
    expect(
      (await startSession(userToken, { file_type: 'video/quicktime' })).body.error,
    ).toMatchObject({
      code: 100,
      message: expect.stringContaining('file_type must be one of'),
    });
  });

  it('refuses a wrong offset, an unknown session, a token outside the header and an expired token', async () => {
    const { userToken } = await connect('Ula Refusals');
    const session = (await startSession(userToken)).body.id as string;
    await send(session, userToken, 0, FILE.subarray(0, 500));

    const wrongOffset = await send(session, userToken, 0, FILE);
    expect(wrongOffset.status).toBe(400);
    expect(wrongOffset.body.error).toMatchObject({
      code: 6001,
      error_subcode: 1363037,
      error_data: { start_offset: 500, end_offset: FILE.length },
    });

    const unknown = await send('upload:bm90LWEtc2Vzc2lvbg?sig=nope', userToken, 0, FILE);
    expect(unknown.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const badSig = await send(
      session.replace(/sig=.*/, 'sig=forged'),
      userToken,
      500,
      FILE.subarray(500),
    );
    expect(badSig.body.error).toMatchObject({ code: 100, error_subcode: 33 });

    const inQuery = await fetch(`${h.base}/v24.0/${session}&access_token=${userToken}`, {
      method: 'POST',
      headers: { file_offset: '500', 'content-type': 'application/octet-stream' },
      body: FILE.subarray(500),
    });
    expect(((await inQuery.json()) as any).error).toMatchObject({ code: 2500 });

    await h.setKnob('Ula Refusals', 'token_expired');
    const expired = await send(session, userToken, 500, FILE.subarray(500));
    expect(expired.body.error).toMatchObject({ code: 190, error_subcode: 463 });
    await h.setKnob('Ula Refusals', 'token_expired', false);
    expect((await call('GET', session, { token: userToken })).body.file_offset).toBe(500);
  });
});
