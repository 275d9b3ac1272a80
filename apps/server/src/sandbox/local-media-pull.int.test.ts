import { describe, expect, it } from 'vitest';
import { publishInOneGo } from '../platforms/publish-steps.js';
import { network as threadsNetwork } from '../platforms/threads/index.js';
import { network as tiktokNetwork } from '../platforms/tiktok/index.js';
import type { PublishRequest, StoredAccount } from '../platforms/types.js';
import { expectPlatformError, useHarness } from '../test/network-tests.js';
import { testMedia } from '../test/publish-media.js';
import { startSandboxHarness } from '../test/sandbox-harness.js';

/**
 * Threads and TikTok fetch a post's media from the internet, like Meta: their sandboxes accept
 * loopback or plain-http media URLs only when told they run on Herald's machine
 * (SANDBOX_LOCAL_MEDIA, the development default), never silently.
 */
const threads = useHarness(() => startSandboxHarness(threadsNetwork, { runsLocally: false }));
const tiktok = useHarness(() => startSandboxHarness(tiktokNetwork, { runsLocally: false }));

type Harness = typeof threads | typeof tiktok;
async function connect(h: Harness, name: string): Promise<StoredAccount> {
  const { account } = await h.connectAs(name);
  return { externalId: account.externalId, tokens: account.tokens, extra: {}, secrets: {} };
}

const withImage = (text: string): PublishRequest => ({
  text,
  media: [testMedia('image')],
  idempotencyKey: `key-${text}`,
  settings: { privacyLevel: 'SELF_ONLY' },
});

describe('media URLs the networks could not fetch', () => {
  it('Threads refuses a loopback image URL when it is not told it runs locally', async () => {
    const image = withImage('A picture from localhost');
    expect(new URL(image.media[0]!.url).hostname).toBe('localhost');
    const adapter = threads.adapter.publishing!;
    const err = await expectPlatformError(
      publishInOneGo(adapter, await connect(threads, 'Strict Threader'), image),
    );
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/cannot be fetched from the internet/);
  });

  it('TikTok fails to pull loopback photos when it is not told it runs locally', async () => {
    const adapter = tiktok.adapter.publishing!;
    const err = await expectPlatformError(
      publishInOneGo(adapter, await connect(tiktok, 'Strict Creator'), withImage('Photos')),
    );
    expect(err.message).toMatch(/photo_pull_failed/);
  });
});
