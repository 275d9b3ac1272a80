import type { PlatformName } from '@herald/contract';
import type { AdapterSettings, PlatformAdapter } from './types.js';

/**
 * Everything Herald knows about one network, exported as `network` from
 * `src/platforms/<slug>/index.ts`: its real URLs, the same URLs on the local sandbox and the
 * adapter. The emulator's routes live in `src/sandbox/<slug>/` (wired by `src/runtime.ts`).
 */
export interface NetworkModule<Urls = Record<string, string>> {
  name: PlatformName;
  /** lowercase name: /auth/{slug}, /{slug}/disconnect/{orgId}, /sandbox/{slug}. */
  slug: string;
  productionUrls: Urls;
  /** The same URL set pointing at the emulator mounted at `base` ({api}/sandbox/{slug}). */
  sandboxUrls(base: string): Urls;
  createAdapter(settings: AdapterSettings<Urls>): PlatformAdapter;
}
