import type { PlatformName } from '@herald/contract';
import type { Config } from '../config.js';
import type { AdapterSettings, PlatformAdapter, StoredAccount } from './types.js';

/**
 * One kind of account a network connects through its own developer app (LinkedIn: a personal
 * profile, or a LinkedIn Page). Each kind has its own client id and secret, scopes and sandbox
 * state; connected accounts of every kind belong to the network's one platform
 * (docs/decisions/0012-linkedin-connect-kinds.md).
 */
export interface ConnectKind {
  /** `/auth/{slug}?kind=`; also the `extra.kind` of the accounts it connects. */
  kind: string;
  /** The connect button's words ("LinkedIn profile"). */
  label: string;
  /** One sentence: what the network's developer app needs for this kind. */
  requirement: string;
  /** Where its credentials are in `config.networks`. */
  configKey: string;
}

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
  /**
   * The URL set with the API version the configuration chooses, for networks that retire their
   * versions on a date (LinkedIn, Meta Graph); applied to real and sandbox URLs alike.
   */
  withApiVersions?(urls: Urls, versions: Config['apiVersions']): Urls;
  /** With `connectKinds`, called once per kind with `settings.kind` set. */
  createAdapter(settings: AdapterSettings<Urls>): PlatformAdapter;
  /** Networks that need one developer app per kind of account; the first kind is the default. */
  connectKinds?: readonly ConnectKind[];
  /** The kind a stored account was connected as (required with `connectKinds`). */
  kindOf?(account: StoredAccount): string;
}
