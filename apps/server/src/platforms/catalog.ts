import type { NetworkModule } from './network-module.js';
import { network as x } from './x/index.js';
import { network as threads } from './threads/index.js';
import { network as tiktok } from './tiktok/index.js';
import { network as facebook } from './facebook/index.js';
import { network as instagram } from './instagram/index.js';
import { network as linkedin } from './linkedin/index.js';

/**
 * The networks Herald has adapters for. Adding a network is adding a folder and a line here.
 * (Each module has its own URL type; the list only needs the shared shape.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const NETWORK_MODULES: NetworkModule<any>[] = [
  x,
  facebook,
  instagram,
  linkedin,
  threads,
  tiktok,
];
