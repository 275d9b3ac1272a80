import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { deleteExpiredPending } from '../modules/integrations/integrations.service.js';
import type { JobDefinition } from './runtime.js';

/**
 * Deletes account choices nobody finished (`pending_connections` past `expires_at`): each holds
 * the encrypted tokens of a sign-in at a network, and an unfinished one must not keep them.
 */
export function pendingConnectionsPurgeJob(
  db: Db,
  log: FastifyBaseLogger,
  now: () => Date = () => new Date(),
): JobDefinition {
  return {
    queue: 'connections.pending-purge.v1',
    cron: '*/15 * * * *',
    retryLimit: 1,
    async handle() {
      const removed = await deleteExpiredPending(db, now());
      if (removed > 0) log.info({ removed }, 'expired account choices removed');
    },
  };
}
