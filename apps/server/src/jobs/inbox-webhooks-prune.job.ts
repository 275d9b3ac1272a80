import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { deleteProcessedWebhookEvents } from '../modules/inbox/inbox.service.js';
import type { JobDefinition } from './runtime.js';

/** How long a processed webhook delivery is kept: long enough to look into a report about it. */
export const WEBHOOK_EVENT_RETENTION_DAYS = 14;
/** Deliveries deleted per statement, so no run holds a long transaction on a busy table. */
const BATCH = 5_000;
/** Statements per run at most; what is left goes at the next hour. */
const MAX_BATCHES = 20;

/**
 * Deletes processed webhook deliveries older than the retention (`inbox_webhook_events`): each
 * holds a network's raw message body, and kept forever the table would only grow.
 */
export function inboxWebhooksPruneJob(
  db: Db,
  log: FastifyBaseLogger,
  now: () => Date = () => new Date(),
): JobDefinition {
  return {
    queue: 'inbox.webhooks-prune.v1',
    cron: '23 * * * *',
    retryLimit: 1,
    async handle() {
      const before = new Date(now().getTime() - WEBHOOK_EVENT_RETENTION_DAYS * 24 * 3600_000);
      let removed = 0;
      for (let i = 0; i < MAX_BATCHES; i++) {
        const n = await deleteProcessedWebhookEvents(db, before, BATCH);
        removed += n;
        if (n < BATCH) break;
      }
      if (removed > 0) log.info({ removed }, 'old webhook deliveries removed');
    },
  };
}
