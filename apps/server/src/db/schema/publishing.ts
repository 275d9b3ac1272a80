/** The publishing engine's work: one target per post and connected account. */
import { FOLLOW_UP_KINDS, FOLLOW_UP_STATUSES, TARGET_STATUSES } from '@herald/contract';
import { sql } from 'drizzle-orm';
import {
  integer,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { integrations, platforms } from './platforms.js';
import { posts } from './posts.js';

/** One post on one connected account: what the publishing engine moves from QUEUED to PUBLISHED. */
export const postTargets = pgTable(
  'post_targets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    platformId: uuid('platform_id')
      .notNull()
      .references(() => platforms.id, { onDelete: 'restrict' }),
    /** The account it goes out from; null once that account was disconnected (the target then fails). */
    integrationId: uuid('integration_id').references(() => integrations.id, {
      onDelete: 'set null',
    }),
    /** Who the account was when chosen, kept after a disconnect so failures and history can name it. */
    accountName: text('account_name'),
    accountUsername: text('account_username'),
    /** The network's id of the account, so reconnecting the same account links the target again. */
    accountExternalId: text('account_external_id'),
    status: text('status', { enum: TARGET_STATUSES }).notNull().default('QUEUED'),
    externalId: text('external_id'),
    permalink: text('permalink'),
    error: text('error'),
    attemptId: uuid('attempt_id'),
    /**
     * The process (herald_processes.id) whose run holds the target in PREPARING, READY or
     * PUBLISHING; null when no run holds it (it waits for its job). Not a foreign key: the row of
     * a process that died is what tells the others to settle what it held.
     */
    heldBy: uuid('held_by'),
    attempts: integer('attempts').notNull().default(0),
    /** What the adapter's prepare made at the network (container ids…), kept across restarts. */
    publishState: jsonb('publish_state').$type<Record<string, unknown>>().notNull().default({}),
    /** When it should go out; the queued job starts after it. */
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** The pg-boss job that will run this target next. */
    jobId: uuid('job_id'),
    /** publishedAt − dueAt, for the lateness the scheduler promises to keep small. */
    latenessMs: integer('lateness_ms'),
    /**
     * What the user chose for this account's network when composing (TikTok: privacy,
     * interactions, disclosure, inbox draft — docs/networks.md#tiktok-conformance); null: nothing.
     */
    settings: jsonb('settings').$type<Record<string, unknown>>(),
    /** Extra the embeds need (Instagram shortcode, TikTok username…). */
    embed: jsonb('embed').$type<Record<string, unknown>>(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('post_targets_post_integration_key').on(t.postId, t.integrationId),
    index('post_targets_status_idx').on(t.status, t.updatedAt),
    /** The analytics screen and export: an organization's targets published in a range. */
    index('post_targets_org_published_idx')
      .on(t.organizationId, t.publishedAt)
      .where(sql`status = 'PUBLISHED'`),
    // The inbox links a comment thread to Herald's post by the network's id of the post.
    index('post_targets_external_idx').on(t.integrationId, t.externalId),
  ],
);

/**
 * What follows a publication on the same account (docs/product.md#threads-and-first-comments): the
 * thread's further parts, each replying to the one before, and the first comment. Each row moves
 * QUEUED → PUBLISHING (stored before the visible call) → PUBLISHED with the network's id (stored
 * before the next one goes), so a crash never sends a part twice nor loses one.
 */
export const postTargetFollowUps = pgTable(
  'post_target_follow_ups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    targetId: uuid('target_id')
      .notNull()
      .references(() => postTargets.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: FOLLOW_UP_KINDS }).notNull(),
    /** Part number (2, 3…); the first comment comes after the last part. */
    position: integer('position').notNull(),
    text: text('text').notNull(),
    status: text('status', { enum: FOLLOW_UP_STATUSES }).notNull().default('QUEUED'),
    externalId: text('external_id'),
    permalink: text('permalink'),
    error: text('error'),
    attemptId: uuid('attempt_id'),
    attempts: integer('attempts').notNull().default(0),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('post_target_follow_ups_position_key').on(t.targetId, t.position),
    index('post_target_follow_ups_status_idx').on(t.status, t.updatedAt),
  ],
);
