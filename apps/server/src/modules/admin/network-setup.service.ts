import type { NetworkSetupReport } from '@herald/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { networkSetupReport } from '../../platforms/preflight/report.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import type { PlatformHttp } from '../../platforms/types.js';
import { listPlatformRows } from '../platforms/platforms.service.js';
import { deploymentFindings } from '../processes/media-placement.js';
import { createYouTubeQuota, youtubeQuotaFinding } from '../youtube/quota.js';

export interface NetworkSetupDeps {
  config: Config;
  networks: Map<string, NetworkRuntime>;
  http: PlatformHttp;
}

/**
 * `GET /admin/network-setup`: the preflight of `herald doctor` (docs/networks.md#preflight), with
 * which networks users are offered, and with `live` a probe of each token endpoint through the
 * running adapters (sandboxes included), and whether the processes serving this database read
 * the same media.
 */
export async function getNetworkSetup(
  db: Db,
  deps: NetworkSetupDeps,
  live: boolean,
): Promise<NetworkSetupReport> {
  const platforms = await listPlatformRows(db, false);
  const active = new Map(platforms.map((p) => [p.name, p.isActive]));
  return networkSetupReport(deps.config, {
    active,
    live,
    http: deps.http,
    runtimes: deps.networks,
    deployment: [
      ...(await deploymentFindings(db, deps.config.processes.lapseSeconds)),
      // The YouTube API project's day, as the adapters counted it.
      await youtubeQuotaFinding(createYouTubeQuota(db, deps.config.youtubeQuota, () => new Date())),
    ],
  });
}
