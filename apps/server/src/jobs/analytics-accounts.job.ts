import type { FastifyBaseLogger } from 'fastify';
import type { AnalyticsCollector } from '../modules/analytics/analytics.service.js';
import type { JobDefinition } from './runtime.js';

export const ACCOUNTS_QUEUE = 'analytics.accounts.daily.v1';

/** Every connected account's figures once a day (docs/analytics.md#schedule), at 03:17 UTC. */
export function analyticsAccountsJob(
  collector: AnalyticsCollector,
  log: FastifyBaseLogger,
): JobDefinition<Record<string, never>> {
  return {
    queue: ACCOUNTS_QUEUE,
    cron: '17 3 * * *',
    retryLimit: 1,
    async handle() {
      const outcomes = await collector.collectAccounts();
      log.info({ accounts: Object.keys(outcomes).length }, 'analytics accounts collected');
    },
  };
}
