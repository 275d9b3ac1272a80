import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { SandboxContext } from '../sandbox/context.js';
import { createSandboxStore } from '../sandbox/store.js';
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
    const adapter = module.createAdapter({
      clientId: credentials?.clientId ?? SANDBOX_CLIENT_ID,
      clientSecret: credentials?.clientSecret ?? sandboxSecret,
      urls,
      http,
    });
    networks.set(module.slug, { name: module.name, slug: module.slug, adapter, sandbox, module });
  }
  return networks;
}

export const sandboxBase = (config: Config, slug: string) =>
  `${config.apiPublicUrl}/sandbox/${slug}`;

/**
 * Mounts the emulator of every network that runs in sandbox mode under {api}/sandbox/{slug}.
 * Its routes are the network's own public endpoints (the access check exempts the prefix).
 */
export async function mountSandboxes(
  app: FastifyInstance,
  networks: Map<string, NetworkRuntime>,
  opts: { db: Db; config: Config; sandboxSecret: string },
) {
  for (const network of networks.values()) {
    if (!network.sandbox) continue;
    const mountPath = `${opts.config.apiBasePath}/sandbox/${network.slug}`;
    const ctx: SandboxContext = {
      publicBase: sandboxBase(opts.config, network.slug),
      mountPath,
      clientId: SANDBOX_CLIENT_ID,
      clientSecret: opts.sandboxSecret,
      store: createSandboxStore(opts.db, network.slug),
    };
    await app.register(
      async (scope) => {
        // Networks take form posts for OAuth; JSON stays parsed by the app's parser.
        scope.addContentTypeParser(
          'application/x-www-form-urlencoded',
          { parseAs: 'string' },
          (_req, body, done) => {
            done(null, Object.fromEntries(new URLSearchParams(body as string)));
          },
        );
        await network.module.registerSandbox(scope, ctx);
      },
      { prefix: mountPath },
    );
  }
}
