/** The server's own storage: generated secrets and the network emulators' state. */
import {
  bigint,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

/** Secrets generated on first start when none are configured (embedded and single-server shapes). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/** State of the local network emulators (sandbox accounts, codes, tokens), kept across restarts. */
export const sandboxRecords = pgTable(
  'sandbox_records',
  {
    network: text('network').notNull(),
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.network, t.kind, t.id] })],
);

/**
 * Rate-limit counters shared by every API process (when REDIS_URL is unset): one row per limit
 * and subject (`writes:<userId>`, `upload-bytes:<orgId>`…), counting until `reset_at`.
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  count: bigint('count', { mode: 'number' }).notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});

/**
 * Answers to create requests that carried an `Idempotency-Key`, per user: a retry of the same
 * key gets the first answer instead of creating a second record. `status_code` is null while the
 * first request is still running.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text('user_id').notNull(),
    key: text('key').notNull(),
    /** `POST /api/organizations/…/roles`: a key belongs to one operation. */
    request: text('request').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * The Herald processes serving this database (docs/architecture.md#processes), each adding its
 * row at start, touching `heartbeat_at` every few seconds and removing its row when it stops
 * gracefully. A row whose heartbeat lapsed belongs to a process that died: the publications it
 * held are settled by another worker, and the row goes once nothing refers to it. Where each
 * keeps its data and media says whether they can serve the same posts.
 */
export const heraldProcesses = pgTable('herald_processes', {
  id: uuid('id').primaryKey(),
  /** `api`, `worker` or `all` (`herald start`). */
  kind: text('kind', { enum: ['api', 'worker', 'all'] }).notNull(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  /** HERALD_DATA_DIR, absolute. */
  dataDir: text('data_dir').notNull(),
  mediaStorage: text('media_storage', { enum: ['local', 's3'] }).notNull(),
  /** The `local` media folder, absolute; null with S3. */
  mediaDir: text('media_dir'),
  /**
   * The identity of that folder (a file in it): the same for processes that mount one shared
   * folder, different for separate folders even at the same path (media-folder.ts).
   */
  mediaFolderId: text('media_folder_id'),
  version: text('version').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  /** Set from the database's clock, so hosts whose clocks differ still compare. */
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});
