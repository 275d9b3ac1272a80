import type { FastifyBaseLogger } from 'fastify';
import { SNAPSHOT_QUEUE, type SnapshotJob } from '../modules/analytics/analytics-queue.js';
import type { AnalyticsCollector } from '../modules/analytics/analytics.service.js';
import type { JobDefinition } from './runtime.js';

/**
 * Reads one published target's metrics at one checkpoint (docs/analytics.md#schedule). A refusal
 * is recorded on the account, not thrown: pg-boss retries would only spend the network's limits.
 */
export function analyticsSnapshotJob(
  collector: AnalyticsCollector,
  log: FastifyBaseLogger,
): JobDefinition<SnapshotJob> {
  return {
    queue: SNAPSHOT_QUEUE,
    retryLimit: 1,
    work: { batchSize: 4 },
    async handle(payloads) {
      for (const payload of payloads) {
        const outcome = await collector.collectSnapshot(payload);
        log.debug({ ...payload, outcome }, 'analytics snapshot');
      }
    },
  };
}
