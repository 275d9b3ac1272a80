import { createHmac } from 'node:crypto';
import type { Config } from '../config.js';
import { NETWORK_MODULES, networkBySlug } from './catalog.js';
import { createNetworkAdapter, type ConnectKindRuntime } from './connect-kinds.js';
import type { NetworkModule } from './network-module.js';
import { appCredentials, appOf, isUnaudited, oauthClientKey } from './network-env.js';
import type { PlatformAdapter, PlatformHttp, QuotaMeter, WritePoints } from './types.js';

export const SANDBOX_CLIENT_ID = 'herald-sandbox';

/**
 * The secret of a network's sandbox app, derived from the server's sandbox secret: each app its
 * own, as each network's app has its own secret, so what one sandbox signs (a webhook delivery)
 * no other network's receiver accepts. Networks of one `sharedApp` share one (Facebook and
 * Instagram, as they share META_APP_SECRET and one receiver, `/webhooks/meta`). The sandbox and
 * Herald's settings for the network both take it from here.
 */
export const sandboxAppSecret = (sandboxSecret: string, slug: string) =>
  createHmac('sha256', sandboxSecret)
    .update(`sandbox-app:${networkBySlug(slug)?.sharedApp ?? slug}`)
    .digest('base64url');

export interface NetworkRuntime {
  name: string;
  slug: string;
  adapter: PlatformAdapter;
  /** Connected through the local emulator (no credentials configured; for any connect kind). */
  sandbox: boolean;
  /** The connect kinds offered on this server (networks with one developer app per kind). */
  kinds: ConnectKindRuntime[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  module: NetworkModule<any>;
  /** Who Herald is to the network (or to its sandbox) and where it lives: for the live preflight. */
  client: { clientId: string; clientSecret: string };
  urls: Record<string, string>;
}

/** Whether accounts of `kind` (or of the network, without kinds) connect through the sandbox. */
export const isSandboxKind = (network: NetworkRuntime, kind: string | undefined) =>
  network.kinds.find((k) => k.kind === kind)?.sandbox ??
  network.kinds[0]?.sandbox ??
  network.sandbox;

/**
 * Builds one adapter per network: with the configured credentials against the real network, or
 * (outside production, when there are none) against the local sandbox. Production without
 * credentials leaves the network — or one of its connect kinds — unavailable.
 */
export function buildNetworks(
  config: Config,
  http: PlatformHttp,
  sandboxSecret: string,
  modules = NETWORK_MODULES,
  /**
   * How requests reach hosts users typed (the servers of a network of many servers): through
   * the SSRF guard, which the composition root passes in.
   */
  userHostHttp: PlatformHttp = http,
  /** Where calls against a daily project quota (YouTube's) are counted; absent: nowhere. */
  quota?: QuotaMeter,
  /** Where per-account write points (Bluesky's) are counted; absent: nowhere. */
  writePoints?: WritePoints,
): Map<string, NetworkRuntime> {
  const networks = new Map<string, NetworkRuntime>();
  for (const module of modules) {
    // The preflight reads who Herald is to the network from the first connect kind built.
    const identities: Array<Pick<NetworkRuntime, 'client' | 'urls'>> = [];
    const built = createNetworkAdapter(module, (kind) => {
      const app = appOf(module, kind);
      const credentials = appCredentials(config, app);
      if (!credentials && config.isProduction) return null;
      const sandbox = !credentials;
      const oauthKey = oauthClientKey(config, app);
      const client = {
        clientId: credentials?.clientId ?? SANDBOX_CLIENT_ID,
        clientSecret: credentials?.clientSecret ?? sandboxAppSecret(sandboxSecret, module.slug),
      };
      const urls = networkUrls(module, config, sandbox);
      identities.push({ client, urls });
      return {
        sandbox,
        ...client,
        urls,
        // The hosts of a network of many servers are typed by users: every request to one goes
        // through the SSRF guard. Its sandbox's servers are Herald's own routes.
        http: app.perServerApps && !sandbox ? userHostHttp : http,
        // Pages people linked to are user-given hosts wherever the network runs.
        fetchLinked: userHostHttp,
        unaudited: isUnaudited(config, app),
        webhookBase: `${config.apiPublicUrl}/webhooks`,
        ...(quota ? { quota } : {}),
        ...(writePoints ? { writePoints } : {}),
        ...(config.inbox.googleBusinessPush ? { pubsubPush: config.inbox.googleBusinessPush } : {}),
        apiPublicUrl: config.apiPublicUrl,
        clientKeySeed: createHmac('sha256', sandboxSecret)
          .update(`client-key:${module.slug}`)
          .digest('base64url'),
        ...(oauthKey ? { oauthKey } : {}),
      };
    });
    const identity = identities[0];
    if (!built || !identity) continue;
    networks.set(module.slug, {
      name: module.name,
      slug: module.slug,
      module,
      ...built,
      ...identity,
    });
  }
  return networks;
}

/**
 * The networks with an app the network has not audited yet (TikTok's `TIKTOK_UNAUDITED`): their
 * sandboxes refuse what such an app may not do.
 */
export const unauditedNetworks = (
  config: Pick<Config, 'networkEnv'>,
  modules = NETWORK_MODULES,
): string[] =>
  modules
    .filter((module) =>
      [null, ...(module.connectKinds ?? [])].some((kind) =>
        isUnaudited(config, appOf(module, kind)),
      ),
    )
    .map((module) => module.slug);

/** Where a network lives for this server, real or sandbox, with the API version configured. */
export function networkUrls<Urls>(
  module: NetworkModule<Urls>,
  config: Pick<Config, 'apiPublicUrl' | 'apiVersions'>,
  sandbox: boolean,
): Urls {
  const urls = sandbox
    ? module.sandboxUrls(sandboxBase(config, module.slug))
    : module.productionUrls;
  return module.withApiVersions ? module.withApiVersions(urls, config.apiVersions) : urls;
}

export const sandboxBase = (config: Pick<Config, 'apiPublicUrl'>, slug: string) =>
  `${config.apiPublicUrl}/sandbox/${slug}`;

/** The redirect URI Herald sends to a network when connecting an account (and registers there). */
export const connectCallbackUrl = (apiPublicUrl: string, slug: string) =>
  `${apiPublicUrl}/auth/${slug}/callback`;
