import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { deleteDeliveriesBefore } from '../modules/outgoing-webhooks/outgoing-webhooks.service.js';
import type { JobDefinition } from './runtime.js';

/** Deliveries deleted per statement, so no run holds a long transaction on a busy table. */
const BATCH = 5_000;
/** Statements per run at most; what is left goes the next day. */
const MAX_BATCHES = 40;

/**
 * Deletes outgoing webhook deliveries older than the retention (WEBHOOK_RETENTION_DAYS), with
 * their attempts (docs/webhooks.md#retention): the outbox keeps every event's body, and kept
 * forever the tables would only grow. Every retry is over within days, far inside it.
 */
export function outgoingWebhooksPruneJob(
  db: Db,
  retentionMs: number,
  log: FastifyBaseLogger,
  now: () => Date = () => new Date(),
): JobDefinition {
  return {
    queue: 'webhooks.prune.v1',
    cron: '37 3 * * *',
    retryLimit: 1,
    async handle() {
      const before = new Date(now().getTime() - retentionMs);
      let removed = 0;
      for (let i = 0; i < MAX_BATCHES; i++) {
        const n = await deleteDeliveriesBefore(db, before, BATCH);
        removed += n;
        if (n < BATCH) break;
      }
      if (removed > 0) log.info({ removed }, 'old outgoing webhook deliveries removed');
    },
  };
}
