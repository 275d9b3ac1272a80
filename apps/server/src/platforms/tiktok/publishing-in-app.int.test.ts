import { describe, expect, it } from 'vitest';
import { testMedia } from '../../test/publish-media.js';
import { createTestApp } from '../../test/app.js';
import { mp4 } from '../../test/media-fixtures.js';
import { connectStoredAccount } from '../../test/networks.js';
import { publishInOneGo } from '../publish-steps.js';
import { emuInject, useHarness } from '../../test/network-tests.js';

const t = useHarness(() => createTestApp());

describe('TikTok publishing inside Herald, against its in-process sandbox', () => {
  it('uploads through the upload_url the sandbox hands out and finds the post id', async () => {
    const account = await connectStoredAccount(
      t,
      'tiktok',
      'tiktok.publish@example.com',
      'In App Creator',
    );
    const adapter = t.networks.get('tiktok')!.adapter.publishing!;

    // A real MP4, as the media store would stream it.
    const video = testMedia('video', { bytes: await mp4({ seconds: 3 }), durationSec: 3 });
    const result = await publishInOneGo(adapter, account, {
      text: 'Posted by the real adapter',
      media: [video],
      idempotencyKey: 'in-app-1',
      settings: { privacyLevel: 'SELF_ONLY' },
    });

    const posts = await emuInject(t, 'tiktok', 'GET', 'posts');
    expect(posts.json().posts).toEqual([
      expect.objectContaining({
        id: result.externalId,
        account: 'in_app_creator',
        mediaType: 'VIDEO',
        mediaCount: 1,
        text: 'Posted by the real adapter',
      }),
    ]);
    expect(result.permalink).toBe(
      `https://www.tiktok.com/@in_app_creator/video/${result.externalId}`,
    );
    const calls = await emuInject(t, 'tiktok', 'GET', 'calls?path=/upload/');
    expect(calls.json().calls.map((c: any) => [c.method, c.status, c.body.bytes])).toEqual([
      ['PUT', 201, video.size],
    ]);
  });
});
