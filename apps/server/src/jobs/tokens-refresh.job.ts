import { platformSlug } from '@herald/contract';
import type { Db } from '../db/client.js';
import {
  dueForRefresh,
  type IntegrationRow,
  refreshAccount,
  waitsForExpiry,
  type IntegrationDeps,
} from '../modules/integrations/integrations.service.js';
import { notifyOrganizationAdmins } from '../modules/notifications/notifications.service.js';
import { PlatformError } from '../platforms/errors.js';
import type { JobDefinition } from './runtime.js';

const MINUTE = 60_000;
/** Refresh when less than a quarter of the token's life is left, and at least 15 minutes ahead. */
const LOOKAHEAD_MS = 24 * 60 * MINUTE;

export function isDue(row: IntegrationRow, now: Date) {
  if (!row.accessTokenExpiresAt) return false;
  const left = row.accessTokenExpiresAt.getTime() - now.getTime();
  const issued = (row.lastRefreshedAt ?? row.connectedAt).getTime();
  const life = row.accessTokenExpiresAt.getTime() - issued;
  return left < Math.max(15 * MINUTE, life / 4);
}

/**
 * Refreshes tokens before they expire. A refresh the network refuses turns the account
 * REFRESH_FAILED and tells the organization's admins (PLATFORM_DISCONNECTED); a network that is
 * down is tried again on the next run.
 */
export async function refreshDueTokens(
  deps: Omit<IntegrationDeps, 'states' | 'publicUrl' | 'apiPublicUrl'>,
  now = new Date(),
) {
  const candidates = await dueForRefresh(deps.db, new Date(now.getTime() + LOOKAHEAD_MS), 200);
  let refreshed = 0;
  let failed = 0;
  for (const { integration, platform } of candidates) {
    if (!isDue(integration, now)) continue;
    const network = deps.networks.get(platformSlug(platform.name));
    if (!network?.adapter.refresh) continue;
    // No refresh token to renew it with: used until it expires (tokens-expiry-notice.job.ts).
    if (waitsForExpiry(network, integration, now)) continue;
    try {
      await refreshAccount(deps as IntegrationDeps, network, integration);
      refreshed++;
    } catch (err) {
      if (err instanceof PlatformError && err.kind === 'reauth') {
        failed++;
        await notifyOrganizationAdmins(deps.db, integration.organizationId, {
          type: 'PLATFORM_DISCONNECTED',
          priority: 'HIGH',
          message: `${platform.name} account ${integration.username ?? integration.name ?? integration.platformAccountId} needs to be reconnected: ${err.message}`,
        });
      } else {
        deps.log.warn(
          {
            integrationId: integration.id,
            platform: platform.name,
            kind: err instanceof PlatformError ? err.kind : 'unknown',
          },
          'token refresh will be retried',
        );
      }
    }
  }
  return { refreshed, failed };
}

export function tokensRefreshJob(
  deps: Omit<IntegrationDeps, 'states' | 'publicUrl' | 'apiPublicUrl'>,
  db: Db,
): JobDefinition {
  return {
    queue: 'tokens.refresh.v1',
    cron: '*/10 * * * *',
    retryLimit: 0,
    async handle() {
      const result = await refreshDueTokens({ ...deps, db });
      if (result.refreshed || result.failed) deps.log.info(result, 'connected accounts refreshed');
    },
  };
}
