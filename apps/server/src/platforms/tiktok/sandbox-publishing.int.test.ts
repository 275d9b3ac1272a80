import { describe, expect, it } from 'vitest';
import { startSandboxHarness } from '../../test/sandbox-harness.js';
import { network } from './index.js';
import { useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));

const MB = 1024 * 1024;
const video = (size: number) => {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70]).copy(bytes);
  return bytes;
};

async function api(token: string, path: string, body: object) {
  const res = await fetch(`${h.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const put = (url: string, bytes: Buffer, range: string) =>
  fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'video/mp4', 'content-range': range },
    body: new Uint8Array(bytes),
  });

describe('TikTok sandbox: Content Posting', () => {
  it('walks PROCESSING_UPLOAD → PUBLISH_COMPLETE as chunks arrive and the clock runs', async () => {
    const { account } = await h.connectAs('Status Watcher');
    const token = account.tokens.accessToken;
    const size = 11 * MB;
    const init = await api(token, '/v2/post/publish/video/init/', {
      post_info: { title: 'watch', privacy_level: 'SELF_ONLY' },
      source_info: {
        source: 'FILE_UPLOAD',
        video_size: size,
        chunk_size: 5 * MB,
        total_chunk_count: 2,
      },
    });
    const { data } = JSON.parse(init.text);
    expect(data.upload_url).toMatch(new RegExp(`^${h.base}/upload/`));
    const status = async () =>
      JSON.parse((await api(token, '/v2/post/publish/status/fetch/', data)).text).data;

    expect(await status()).toEqual({
      status: 'PROCESSING_UPLOAD',
      publicaly_available_post_id: [],
      uploaded_bytes: 0,
    });
    const bytes = video(size);
    // Out of order: refused.
    const early = await put(
      data.upload_url,
      bytes.subarray(5 * MB),
      `bytes ${5 * MB}-${size - 1}/${size}`,
    );
    expect(early.status).toBe(400);
    expect(
      (await put(data.upload_url, bytes.subarray(0, 5 * MB), `bytes 0-${5 * MB - 1}/${size}`))
        .status,
    ).toBe(206);
    expect((await status()).uploaded_bytes).toBe(5 * MB);
    const last = await put(
      data.upload_url,
      bytes.subarray(5 * MB),
      `bytes ${5 * MB}-${size - 1}/${size}`,
    );
    expect(last.status).toBe(201);
    expect((await status()).status).toBe('PROCESSING_UPLOAD');

    await h.advanceClock(5);
    const raw = (await api(token, '/v2/post/publish/status/fetch/', data)).text;
    // The post id is written as a bare int64, as TikTok does.
    expect(raw).toMatch(/"publicaly_available_post_id":\[7\d{18}\]/);
    expect(JSON.parse(raw).data).toMatchObject({
      status: 'PUBLISH_COMPLETE',
      uploaded_bytes: size,
    });
    const posts = (await h.emu('GET', 'posts?account=status_watcher')) as { posts: any[] };
    expect(posts.posts).toEqual([
      expect.objectContaining({ publishId: data.publish_id, privacyLevel: 'SELF_ONLY' }),
    ]);
    expect(raw).toContain(posts.posts[0].id);
  });

  it('refuses a wrong chunk plan, an unknown privacy level and a wrong upload token', async () => {
    const { account } = await h.connectAs('Strict Rules');
    const token = account.tokens.accessToken;
    const init = (source: object, privacy = 'PUBLIC_TO_EVERYONE') =>
      api(token, '/v2/post/publish/video/init/', {
        post_info: { title: 't', privacy_level: privacy },
        source_info: { source: 'FILE_UPLOAD', ...source },
      });
    const bad = await init({ video_size: 20 * MB, chunk_size: 5 * MB, total_chunk_count: 3 });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).error.code).toBe('invalid_params');
    const privacy = await init({ video_size: MB, chunk_size: MB, total_chunk_count: 1 }, 'FRIENDS');
    expect(privacy.status).toBe(403);
    expect(JSON.parse(privacy.text).error.code).toBe('privacy_level_option_mismatch');
    const ok = JSON.parse(
      (await init({ video_size: MB, chunk_size: MB, total_chunk_count: 1 })).text,
    ).data;
    const forged = ok.upload_url.replace(/upload_token=[^&]+/, 'upload_token=nope');
    expect((await put(forged, video(MB), `bytes 0-${MB - 1}/${MB}`)).status).toBe(404);
  });

  it('checks knob values and applies latency to every call', async () => {
    const { account } = await h.connectAs('Slow Lane');
    await expect(h.setKnob('slow_lane', 'latency_ms')).rejects.toThrow('needs a numeric value');
    await expect(h.setKnob('slow_lane', 'fail_next', true, -1)).rejects.toThrow('from 0 to');
    await h.setKnob('slow_lane', 'latency_ms', true, 300);
    const started = Date.now();
    await api(account.tokens.accessToken, '/v2/post/publish/creator_info/query/', {});
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });
});
