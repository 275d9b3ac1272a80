import { describe, expect, it } from 'vitest';
import { testMedia } from '../../test/publish-media.js';
import { startSandboxHarness } from '../../test/sandbox-harness.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PublishRequest, StoredAccount } from '../types.js';
import { createTikTokAdapter } from './adapter.js';
import { network } from './index.js';
import { TIKTOK_TIMING, type TikTokTiming } from './limits.js';

const h = useHarness(() => startSandboxHarness(network));
const fast: TikTokTiming = {
  ...TIKTOK_TIMING,
  initTimeoutMs: 400,
  statusFirstDelayMs: 50,
  statusMaxDelayMs: 200,
  statusBudgetMs: 3000,
};
const adapter = (unaudited: boolean) =>
  createTikTokAdapter({ ...h.settings, unaudited }, fast).publishing!;

async function connect(name: string): Promise<StoredAccount> {
  const { account } = await h.connectAs(name);
  return { externalId: account.externalId, tokens: account.tokens, extra: {}, secrets: {} };
}

const photos = (n: number, privacyLevel = 'PUBLIC_TO_EVERYONE'): PublishRequest => ({
  text: 'Our stand at the fair',
  media: Array.from({ length: n }, () => testMedia('image')),
  idempotencyKey: `photos-${n}-${Math.random()}`,
  settings: { privacyLevel },
});
const postsOf = async (account: string) =>
  ((await h.emu('GET', `posts?account=${account}`)) as { posts: Array<{ privacyLevel: string }> })
    .posts;

describe('TikTok: an unaudited app (docs/networks.md#tiktok-conformance)', () => {
  it('is refused by the sandbox when it posts anything but SELF_ONLY, in TikTok’s words', async () => {
    const account = await connect('Private Pia');
    await h.setKnob('private_pia', 'unaudited', true);
    const err = await expectPlatformError(publishInOneGo(adapter(false), account, photos(1)));
    expect(err.kind).toBe('bad_request');
    expect(err.details.code).toBe('unaudited_client_can_only_post_to_private_accounts');
    expect(err.message).toBe(
      "TikTok has not audited Herald's app yet, so it only accepts private posts (visible to you only) from private accounts. Make the TikTok account private and publish again, or ask an operator to have the app audited. (TikTok said: Unaudited clients can only post with SELF_ONLY privacy, to accounts that are private.)",
    );
    expect(await postsOf('private_pia')).toEqual([]);
  });

  it('posts with SELF_ONLY in unaudited mode (TIKTOK_UNAUDITED), which the sandbox accepts', async () => {
    const account = await connect('Private Paul');
    await h.setKnob('private_paul', 'unaudited', true);
    const refused = await expectPlatformError(publishInOneGo(adapter(true), account, photos(2)));
    expect(refused.message).toMatch(/^Herald's TikTok app is not audited yet/);
    await publishInOneGo(adapter(true), account, photos(2, 'SELF_ONLY'));
    expect((await postsOf('private_paul')).map((p) => p.privacyLevel)).toEqual(['SELF_ONLY']);
  });
});

describe('TikTok: photos pulled from an unverified domain', () => {
  it('are refused with url_ownership_unverified and a sentence saying what to do', async () => {
    const account = await connect('Photo Fay');
    const elsewhere = photos(1);
    elsewhere.media[0] = { ...elsewhere.media[0]!, url: 'https://cdn.elsewhere.example/fair.jpg' };
    const err = await expectPlatformError(publishInOneGo(adapter(false), account, elsewhere));
    expect(err.kind).toBe('bad_request');
    expect(err.details.code).toBe('url_ownership_unverified');
    expect(err.message).toMatch(
      /^TikTok refused to fetch this post's photos because the domain of Herald's media links is not verified/,
    );
    // Herald's own media host counts as verified, until the operator is said not to have done it.
    await publishInOneGo(adapter(false), account, photos(1));
    await h.setKnob('photo_fay', 'url_unverified', true);
    const again = await expectPlatformError(publishInOneGo(adapter(false), account, photos(1)));
    expect(again.details.code).toBe('url_ownership_unverified');
    expect(await postsOf('photo_fay')).toHaveLength(1);
  });
});
