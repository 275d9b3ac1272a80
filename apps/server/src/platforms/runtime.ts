import type { Config } from '../config.js';
import { NETWORK_MODULES } from './catalog.js';
import { createNetworkAdapter, type ConnectKindRuntime } from './connect-kinds.js';
import type { NetworkModule } from './network-module.js';
import type { PlatformAdapter, PlatformHttp } from './types.js';

export const SANDBOX_CLIENT_ID = 'herald-sandbox';

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
): Map<string, NetworkRuntime> {
  const networks = new Map<string, NetworkRuntime>();
  for (const module of modules) {
    const built = createNetworkAdapter(module, (kind) => {
      const key = (kind?.configKey ?? module.slug) as keyof Config['networks'];
      const credentials = config.networks[key] ?? null;
      if (!credentials && config.isProduction) return null;
      const sandbox = !credentials;
      return {
        sandbox,
        clientId: credentials?.clientId ?? SANDBOX_CLIENT_ID,
        clientSecret: credentials?.clientSecret ?? sandboxSecret,
        urls: sandbox
          ? module.sandboxUrls(sandboxBase(config, module.slug))
          : module.productionUrls,
        http,
      };
    });
    if (!built) continue;
    networks.set(module.slug, { name: module.name, slug: module.slug, module, ...built });
  }
  return networks;
}

export const sandboxBase = (config: Config, slug: string) =>
  `${config.apiPublicUrl}/sandbox/${slug}`;
