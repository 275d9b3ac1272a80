import { describe, expect, it } from 'vitest';
import { testMedia } from '../../test/publish-media.js';
import { createTestApp } from '../../test/app.js';
import { jpeg } from '../../test/media-fixtures.js';
import { connectStoredAccount } from '../../test/networks.js';
import { publishInOneGo } from '../publish-steps.js';
import { emuInject, useHarness } from '../../test/network-tests.js';

const t = useHarness(() => createTestApp());

describe('Threads publishing inside Herald, against its in-process sandbox', () => {
  it('publishes a carousel with the adapter Herald builds, and reads replies', async () => {
    const account = await connectStoredAccount(
      t,
      'threads',
      'threads.publish@example.com',
      'In App Threader',
    );
    const adapter = t.networks.get('threads')!.adapter.publishing!;

    const result = await publishInOneGo(adapter, account, {
      text: 'Two pictures',
      media: [testMedia('image', { bytes: await jpeg(1080, 1350) }), testMedia('image')],
      idempotencyKey: 'in-app-1',
    });
    const emu = (method: 'GET' | 'POST', path: string, payload?: object) =>
      emuInject(t, 'threads', method, path, payload);
    expect((await emu('GET', 'posts')).json().posts).toEqual([
      expect.objectContaining({
        id: result.externalId,
        account: 'in_app_threader',
        mediaType: 'CAROUSEL_ALBUM',
        mediaCount: 2,
      }),
    ]);

    await emu('POST', 'comments', { postId: result.externalId, fromName: 'Fan', message: 'Nice' });
    const { comments } = await adapter.listComments!(account, result.externalId, { limit: 5 });
    expect(comments.map((c) => [c.from.name, c.message])).toEqual([['fan', 'Nice']]);
  });
});
