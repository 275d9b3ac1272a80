import type { NetworkSetupFinding, NetworkSetupReport } from '@herald/contract';
import { NETWORK_MODULES } from '../catalog.js';
import { appCredentials, appOf } from '../network-env.js';
import { networkUrls, type NetworkRuntime } from '../runtime.js';
import type { PlatformHttp } from '../types.js';
import { checkNetworkSetup, type PreflightOptions } from './preflight.js';
import { probeTokenEndpoint, type ProbeTarget } from './probe.js';

export interface ReportOptions extends PreflightOptions {
  /** Also ask each network's token endpoint (`--live`). */
  live?: boolean;
  /** How the probes reach the networks (the server's adapters' fetch, which answers sandboxes in-process). */
  http?: PlatformHttp;
  /**
   * The running adapters: probes then use their credentials and URLs, sandboxes included. Without
   * them (the CLI), only networks with configured credentials are probed.
   */
  runtimes?: Map<string, NetworkRuntime>;
  /** Findings about the deployment as a whole (processes/deployment-findings.ts). */
  deployment?: NetworkSetupFinding[];
}

/**
 * The preflight report of `herald doctor` and `GET /admin/network-setup`: the static findings of
 * every network, plus one `live` finding per network when asked.
 */
export async function networkSetupReport(
  config: Parameters<typeof checkNetworkSetup>[0],
  options: ReportOptions = {},
): Promise<NetworkSetupReport> {
  const networks = checkNetworkSetup(config, options);
  const live = Boolean(options.live);
  if (live) {
    const http = options.http ?? fetch;
    const modules = options.modules ?? NETWORK_MODULES;
    await Promise.all(
      networks.map(async (network) => {
        const target = probeTargetOf(config, network, modules, options.runtimes);
        if (!target) {
          network.findings.push({
            level: 'ok',
            topic: 'live',
            message:
              network.mode === 'sandbox'
                ? `Nothing to probe: ${network.name}'s sandbox runs inside Herald's server (open Network setup in the back-office to probe it there).`
                : `Nothing to probe: ${network.name} has no credentials.`,
          });
          return;
        }
        network.findings.push(await probeTokenEndpoint(target, http, modules));
      }),
    );
  }
  return {
    apiPublicUrl: config.apiPublicUrl,
    live,
    networks,
    deployment: options.deployment ?? [],
  };
}

function probeTargetOf(
  config: Parameters<typeof checkNetworkSetup>[0],
  network: NetworkSetupReport['networks'][number],
  modules: NonNullable<ReportOptions['modules']>,
  runtimes: ReportOptions['runtimes'],
): ProbeTarget | null {
  const base = {
    slug: network.slug,
    name: network.name,
    redirectUri: network.redirectUri,
    kind: network.kind,
  };
  const module = modules.find((m) => m.slug === network.slug);
  const credentials = module
    ? appCredentials(
        config,
        appOf(
          module,
          module.connectKinds?.find((k) => k.kind === network.kind),
        ),
      )
    : null;
  const runtime = runtimes?.get(network.slug);
  // A sandbox answers every connect kind with the same client; real kinds each have their own app.
  if (runtime && network.mode === 'sandbox')
    return { ...base, ...runtime.client, urls: runtime.urls };
  if (runtime && credentials) return { ...base, ...credentials, urls: runtime.urls };
  if (!credentials || !module) return null;
  return { ...base, ...credentials, urls: networkUrls(module, config, false) };
}
