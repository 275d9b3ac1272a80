import type { NetworkSetupFinding } from '@herald/contract';
import type { Config } from '../../config.js';
import {
  apiVersionStatus,
  type ApiVersionTable,
  LINKEDIN_API_VERSIONS,
  META_GRAPH_VERSIONS,
  oldestServedVersion,
  recommendedApiVersion,
  SUNSET_WARNING_DAYS,
} from '../../lib/api-versions.js';

/** Which version table a network's calls follow, and where the configuration keeps its choice. */
export const API_VERSION_TABLES = {
  linkedin: LINKEDIN_API_VERSIONS,
  meta: META_GRAPH_VERSIONS,
} satisfies Record<keyof Config['apiVersions'], ApiVersionTable>;

/** What a network does with a version it no longer serves, for the sentences below. */
const AFTER_SUNSET: Record<keyof Config['apiVersions'], (oldest: string | null) => string> = {
  linkedin: () => 'refuses every call naming it (426 NONEXISTENT_VERSION)',
  meta: (oldest) =>
    `answers the calls naming it as ${oldest ?? 'the oldest version it still serves'} without saying so, so publishing, comments and insights may change under Herald`,
};

/**
 * The `api-version` finding of a network that retires its API versions on a date (LinkedIn,
 * Meta Graph): ok while the configured one is served, a warning from SUNSET_WARNING_DAYS
 * before its sunset, a problem after it or when Herald does not know the version at all.
 */
export function apiVersionFinding(
  which: keyof Config['apiVersions'],
  version: string,
  now: Date,
): NetworkSetupFinding {
  const table = API_VERSION_TABLES[which];
  const status = apiVersionStatus(table, version, now);
  const next = recommendedApiVersion(table, now);
  const move = `set ${table.setting} to ${next} and restart Herald`;
  const finding = (level: NetworkSetupFinding['level'], message: string): NetworkSetupFinding => ({
    level,
    topic: 'api-version',
    message,
  });
  switch (status.state) {
    case 'unknown':
      return finding(
        'problem',
        `${table.setting} is ${version}, an API version Herald does not know for ${table.network}: ${move} (the versions Herald knows are listed in docs/networks.md#api-versions).`,
      );
    case 'unreleased':
      return finding(
        'problem',
        `${table.network} API version ${version} is not released before ${status.entry.released}: ${move}.`,
      );
    case 'ended':
      return finding(
        'problem',
        `${table.network} stopped serving API version ${version} on ${status.entry.sunset} and ${AFTER_SUNSET[which](oldestServedVersion(table, now))}: ${move}.`,
      );
    case 'ending':
      return finding(
        'warning',
        `${table.network} stops serving API version ${version} on ${status.entry.sunset}${status.entry.sunsetAnnounced ? '' : ' (expected: not announced yet)'}, in ${status.daysLeft} day(s); after that it ${AFTER_SUNSET[which](null)}: ${move} before then.`,
      );
    case 'served':
      return finding(
        'ok',
        status.entry.sunset === null
          ? `${table.network} API version ${version} (${table.setting}) is served, with no end announced yet.`
          : `${table.network} API version ${version} (${table.setting}) is served until ${status.entry.sunset}${status.entry.sunsetAnnounced ? '' : ' (expected: not announced yet)'}; Herald warns ${SUNSET_WARNING_DAYS} days before.`,
      );
  }
}
