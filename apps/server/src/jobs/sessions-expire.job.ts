import type { FastifyBaseLogger } from 'fastify';
import { deleteExpiredPayloads } from '../identity/dev-idp.repository.js';
import type { SessionService } from '../identity/session.service.js';
import type { Db } from '../db/client.js';
import { purgeExpiredKeys } from '../modules/idempotency/idempotency.service.js';
import type { JobDefinition } from './runtime.js';

/**
 * Deletes sign-in state nobody can use any more: expired or long-revoked sessions (with their
 * refresh tokens), expired records of the development identity provider, and idempotency keys
 * past their lifetime.
 */
export function sessionsExpireJob(
  db: Db,
  sessions: SessionService,
  log: FastifyBaseLogger,
): JobDefinition {
  return {
    queue: 'sessions.expire.v1',
    cron: '*/30 * * * *',
    retryLimit: 1,
    async handle() {
      const removedSessions = await sessions.expireStale();
      const removedIdp = await deleteExpiredPayloads(db, new Date());
      await purgeExpiredKeys(db);
      log.info({ removedSessions, removedIdp }, 'expired sign-in state removed');
    },
  };
}
