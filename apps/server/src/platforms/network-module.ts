import type { PlatformName } from '@herald/contract';
import type { Config } from '../config.js';
import type { InboxAdapter, WebhookReceiver } from './inbox-types.js';
import type { NetworkSetupFacts } from './setup-facts.js';
import type { TokenProbe } from './token-probe.js';
import type { AdapterSettings, MetricsAdapter, PlatformAdapter, StoredAccount } from './types.js';

/** How hard Herald may push a network's publishing (docs/networks.md#at-a-glance). */
export interface PublishCaps {
  /** Publications of this network in flight at once, across every process sharing the database. */
  concurrency: number;
  /** Publications of one account at once, where the network needs it (quota read before publish). */
  perAccount?: number;
  /** Publications per account per rolling 24 hours. */
  perDay?: number;
}

/**
 * The adapter a network module builds. Its metrics and inbox halves must be said, even when the
 * network has none (`undefined`): forgetting one would quietly leave analytics or the inbox
 * without the network.
 */
export type NetworkAdapter = PlatformAdapter & {
  metrics: MetricsAdapter | undefined;
  inbox: InboxAdapter | undefined;
};

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
  /** One sentence for the people who connect: what an account of this kind posts as. */
  description: string;
  /** One sentence for operators: what the network's developer app needs for this kind. */
  requirement: string;
  /**
   * The developer app of this kind, when it is not the network's `setup` (LinkedIn's Page app):
   * its credentials are read from the variables its `env` names.
   */
  setup?: NetworkSetupFacts;
}

/**
 * Everything the server knows about one network, exported as `network` from
 * `src/platforms/<slug>/index.ts` and listed once in `platforms/catalog.ts`: its real URLs, the
 * same URLs on the local sandbox, the adapter, how hard to push its publishing, what its
 * developer app needs, how `herald doctor` probes its credentials, and its webhook receiver. The
 * emulator's routes live in `src/sandbox/<slug>/`, listed in `sandbox/catalog.ts`
 * (docs/decisions/0006-networks-and-sandboxes.md). Every fact a network must state is a required
 * field, so a module that forgets one does not compile.
 */
export interface NetworkModule<
  Urls = Record<string, string>,
  Name extends PlatformName = PlatformName,
> {
  name: Name;
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
  createAdapter(settings: AdapterSettings<Urls>): NetworkAdapter;
  /** Networks that need one developer app per kind of account; the first kind is the default. */
  connectKinds?: readonly ConnectKind[];
  /** The kind a stored account was connected as (required with `connectKinds`). */
  kindOf?(account: StoredAccount): string;
  /** The publisher's caps for this network, from the numbers of its limits.ts. */
  publishCaps: PublishCaps;
  /**
   * What the network's developer app must have (the preflight, docs/networks.md#preflight); with
   * `connectKinds`, the app of every kind that does not bring its own. Its `env` names the
   * variables its credentials are read from, and `audit` the one saying it is not audited yet:
   * config.ts knows no network (platforms/network-env.ts).
   */
  setup: NetworkSetupFacts;
  /**
   * The live preflight's request: the code exchange as the adapter sends it, with a made-up code
   * (platforms/token-probe.ts); null when Herald has no probe for the network.
   */
  tokenProbe: TokenProbe;
  /**
   * Whether the network fetches post media from Herald's media URLs rather than receiving the
   * bytes (docs/networks.md#media-urls): then those URLs must be public https.
   */
  pullsMediaByUrl: boolean;
  /**
   * The receiver of its webhooks at `/webhooks/{provider}`, or null for a network that sends
   * none. Networks sharing one developer app share one receiver (Meta's, for Facebook and
   * Instagram): both name the same object, and it is wired once.
   */
  webhookReceiver: WebhookReceiver | null;
  /**
   * The developer app it shares with other networks (Facebook and Instagram: 'meta'): their
   * sandboxes then share one app secret, as the real ones share META_APP_SECRET.
   */
  sharedApp?: string;
}
