import { platformSlug, type PlatformName } from '@herald/contract';
import type { RegisterSandbox } from './context.js';
import { registerBlueskySandbox } from './bluesky/index.js';
import { registerFacebookSandbox } from './facebook/index.js';
import { registerInstagramSandbox } from './instagram/index.js';
import { registerLinkedInSandbox } from './linkedin/index.js';
import { registerMastodonSandbox } from './mastodon/index.js';
import { registerThreadsSandbox } from './threads/index.js';
import { registerTikTokSandbox } from './tiktok/index.js';
import { registerXSandbox } from './x/index.js';
import { registerYouTubeSandbox } from './youtube/index.js';
import { registerGoogleBusinessSandbox } from './googlebusiness/index.js';
import { registerPinterestSandbox } from './pinterest/index.js';

/**
 * Each network's emulator, by the contract's platform name: a network without one does not
 * compile, as every network connects through its sandbox when it has no credentials
 * (docs/networks.md#adding-a-network). The sandboxes may not import `platforms/`, so this is a
 * catalog of its own beside `platforms/catalog.ts`; both are keyed by the same names.
 */
export const SANDBOX_CATALOG: { readonly [Name in PlatformName]: RegisterSandbox } = {
  X: registerXSandbox,
  Facebook: registerFacebookSandbox,
  Instagram: registerInstagramSandbox,
  LinkedIn: registerLinkedInSandbox,
  Threads: registerThreadsSandbox,
  TikTok: registerTikTokSandbox,
  Mastodon: registerMastodonSandbox,
  Bluesky: registerBlueskySandbox,
  YouTube: registerYouTubeSandbox,
  'Google Business Profile': registerGoogleBusinessSandbox,
  Pinterest: registerPinterestSandbox,
};

/** The emulators by slug (the `{slug}` of `{api}/sandbox/{slug}`: the lowercase name). */
export const SANDBOXES: Readonly<Record<string, RegisterSandbox>> = Object.fromEntries(
  Object.entries(SANDBOX_CATALOG).map(([name, register]) => [platformSlug(name), register]),
);
