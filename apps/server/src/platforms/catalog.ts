import type { PlatformName } from '@herald/contract';
import type { NetworkModule } from './network-module.js';
import { network as x } from './x/index.js';
import { network as threads } from './threads/index.js';
import { network as tiktok } from './tiktok/index.js';
import { network as facebook } from './facebook/index.js';
import { network as instagram } from './instagram/index.js';
import { network as linkedin } from './linkedin/index.js';
import { network as mastodon } from './mastodon/index.js';
import { network as bluesky } from './bluesky/index.js';
import { network as youtube } from './youtube/index.js';
import { network as googlebusiness } from './googlebusiness/index.js';
import { network as pinterest } from './pinterest/index.js';

/**
 * The networks Herald has adapters for, one module per name of the contract's PLATFORM_NAMES:
 * a name without its module, or a module under another's name, does not compile
 * (docs/networks.md#adding-a-network). Each module has its own URL type; the catalog needs only
 * the shared shape.
 */
export const NETWORKS: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly [Name in PlatformName]: NetworkModule<any, Name>;
} = {
  X: x,
  Facebook: facebook,
  Instagram: instagram,
  LinkedIn: linkedin,
  Threads: threads,
  TikTok: tiktok,
  Mastodon: mastodon,
  Bluesky: bluesky,
  YouTube: youtube,
  'Google Business Profile': googlebusiness,
  Pinterest: pinterest,
};

/** The catalog as a list, in the order above (the preflight and the back-office list them so). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const NETWORK_MODULES: readonly NetworkModule<any>[] = Object.values(NETWORKS);

/** The module of a network by its slug (`x`, `linkedin`), or undefined. */
export const networkBySlug = (slug: string) => NETWORK_MODULES.find((m) => m.slug === slug);
