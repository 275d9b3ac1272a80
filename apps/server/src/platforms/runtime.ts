import type { Config } from '../config.js';
import { NETWORK_MODULES } from './catalog.js';
import type { NetworkModule } from './network-module.js';
import type { PlatformAdapter, PlatformHttp } from './types.js';

export const SANDBOX_CLIENT_ID = 'herald-sandbox';

export interface NetworkRuntime {
  name: string;
  slug: string;
  adapter: PlatformAdapter;
  /** Connected through the local emulator (no credentials configured). */
  sandbox: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  module: NetworkModule<any>;
  /** Who Herald is to the network (or to its sandbox) and where it lives: for the live preflight. */
  client: { clientId: string; clientSecret: string };
  urls: Record<string, string>;
}

/**
 * Builds one adapter per network: with the configured credentials against the real network, or
 * (outside production, when there are none) against the local sandbox. Production without
 * credentials leaves the network unavailable.
 */
export function buildNetworks(
  config: Config,
  http: PlatformHttp,
  sandboxSecret: string,
  modules = NETWORK_MODULES,
): Map<string, NetworkRuntime> {
  const networks = new Map<string, NetworkRuntime>();
  for (const module of modules) {
    const credentials = config.networks[module.slug as keyof Config['networks']] ?? null;
    if (!credentials && config.isProduction) continue;
    const sandbox = !credentials;
    const urls = sandbox
      ? module.sandboxUrls(sandboxBase(config, module.slug))
      : module.productionUrls;
    const client = {
      clientId: credentials?.clientId ?? SANDBOX_CLIENT_ID,
      clientSecret: credentials?.clientSecret ?? sandboxSecret,
    };
    const adapter = module.createAdapter({
      ...client,
      urls,
      http,
      unaudited: config.unauditedNetworks.includes(module.slug),
    });
    networks.set(module.slug, {
      name: module.name,
      slug: module.slug,
      adapter,
      sandbox,
      module,
      client,
      urls,
    });
  }
  return networks;
}

export const sandboxBase = (config: Pick<Config, 'apiPublicUrl'>, slug: string) =>
  `${config.apiPublicUrl}/sandbox/${slug}`;

/** The redirect URI Herald sends to a network when connecting an account (and registers there). */
export const connectCallbackUrl = (apiPublicUrl: string, slug: string) =>
  `${apiPublicUrl}/auth/${slug}/callback`;
