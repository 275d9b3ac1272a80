/**
 * Analytics (docs/analytics.md): what the networks said about each published target over its
 * life, each connected account per day, and where reading them stands. A metric the network
 * did not give is NULL, never 0.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { integrations, platforms } from './platforms.js';
import { posts } from './posts.js';
import { postTargets } from './publishing.js';

/** The metric columns every snapshot can carry (Herald's names, docs/analytics.md#metric-model). */
const postMetricColumns = () => ({
  views: bigint('views', { mode: 'number' }),
  reach: bigint('reach', { mode: 'number' }),
  likes: bigint('likes', { mode: 'number' }),
  comments: bigint('comments', { mode: 'number' }),
  shares: bigint('shares', { mode: 'number' }),
  saves: bigint('saves', { mode: 'number' }),
  clicks: bigint('clicks', { mode: 'number' }),
  videoViews: bigint('video_views', { mode: 'number' }),
  watchTimeMs: bigint('watch_time_ms', { mode: 'number' }),
  /** The network's own definition of engagement, summed from its components. */
  interactions: bigint('interactions', { mode: 'number' }),
});

/** One reading of one published target's metrics; every reading is kept (a post's curve). */
export const postMetricSnapshots = pgTable(
  'post_metric_snapshots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    targetId: uuid('target_id')
      .notNull()
      .references(() => postTargets.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id').references(() => integrations.id, {
      onDelete: 'set null',
    }),
    /** The schedule's checkpoint that took it ('1h', '6h', … 'w13'). */
    checkpoint: text('checkpoint').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    ...postMetricColumns(),
    /** What the network answered, under its own metric names. */
    raw: jsonb('raw').$type<Record<string, number>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('post_metric_snapshots_target_idx').on(t.targetId, t.takenAt),
    index('post_metric_snapshots_org_idx').on(t.organizationId, t.takenAt),
  ],
);

/** One connected account on one day (UTC): followers and what else the network gives. */
export const accountMetricDays = pgTable(
  'account_metric_days',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    followers: bigint('followers', { mode: 'number' }),
    views: bigint('views', { mode: 'number' }),
    reach: bigint('reach', { mode: 'number' }),
    profileViews: bigint('profile_views', { mode: 'number' }),
    interactions: bigint('interactions', { mode: 'number' }),
    raw: jsonb('raw').$type<Record<string, number>>().notNull().default({}),
    collectedAt: timestamp('collected_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('account_metric_days_day_uq').on(t.integrationId, t.day),
    index('account_metric_days_org_idx').on(t.organizationId, t.day),
  ],
);

/**
 * Where reading a connected account's metrics stands: stale with the network's reason after a
 * refused read, and not asked again before `backoffUntil` after a rate limit.
 */
export const analyticsAccountStatus = pgTable('analytics_account_status', {
  integrationId: uuid('integration_id')
    .primaryKey()
    .references(() => integrations.id, { onDelete: 'cascade' }),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  staleReason: text('stale_reason'),
  staleSince: timestamp('stale_since', { withTimezone: true }),
  backoffUntil: timestamp('backoff_until', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An organization's analytics settings. X bills every post read, so collecting X metrics is
 * off until the organization turns it on, and stops at a monthly budget of reads.
 */
export const analyticsSettings = pgTable('analytics_settings', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  xEnabled: boolean('x_enabled').notNull().default(false),
  xMonthlyReadBudget: integer('x_monthly_read_budget').notNull().default(1000),
  /** The UTC month `xReadsUsed` counts ('2026-05'). */
  xReadsMonth: text('x_reads_month'),
  xReadsUsed: integer('x_reads_used').notNull().default(0),
  /**
   * When a member last used "Refresh metrics": the next use waits out the cooldown from here
   * (docs/analytics.md#refresh-metrics). Claimed with a guarded upsert, so two API processes
   * cannot both refresh at once.
   */
  refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The overview's daily series, rolled up (docs/analytics.md#rollup): per organization, account
 * and quarter hour (`bucket`, its first instant, on UTC's quarter hours), the views and
 * interactions gained by the readings taken in it (each reading minus the same target's reading
 * before it). Quarter hours, not days: every time zone's midnight falls on one (offsets are whole
 * quarter hours), so the series adds them up into the days of whichever zone the reader's is.
 * Kept by triggers on `post_metric_snapshots` (in the migrations), so every way a reading is
 * written or removed keeps it right; `readings` counts the readings behind a row, and a row with
 * none is a quarter hour without readings. `integration_id` is the reading's account (the nil
 * uuid once that account was deleted); no foreign key, so deleting an account keeps its past in
 * the organization's totals.
 */
export const analyticsDailyGains = pgTable(
  'analytics_daily_gains',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id').notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    views: bigint('views', { mode: 'number' }),
    interactions: bigint('interactions', { mode: 'number' }),
    readings: integer('readings').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.bucket, t.integrationId] })],
);

/**
 * Each published target's latest reading (docs/analytics.md#latest-reading): a copy of the
 * `post_metric_snapshots` row with the greatest (`taken_at`, `snapshot_id`), one row per target,
 * so the screen's KPIs, top posts, best times and export read one row per target instead of
 * searching its readings. Kept by triggers on `post_metric_snapshots` (in the migration): an
 * insert replaces the row only when it is later (a reading arriving out of order or twice
 * changes nothing), a delete or update recomputes the targets it touched. `engagement_base` is
 * the engagement rate's denominator (views, else reach) where the reading has interactions,
 * else NULL: what best times and the KPIs add up.
 */
export const postMetricLatest = pgTable(
  'post_metric_latest',
  {
    targetId: uuid('target_id')
      .primaryKey()
      .references(() => postTargets.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The reading copied here (no foreign key: the triggers keep it). */
    snapshotId: uuid('snapshot_id').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    ...postMetricColumns(),
    engagementBase: bigint('engagement_base', { mode: 'number' }).generatedAlwaysAs(
      sql`case when interactions is not null then coalesce(views, reach) end`,
    ),
  },
  (t) => [index('post_metric_latest_org_idx').on(t.organizationId)],
);

/**
 * A post published outside Herald on a connected account, found by listing the account's recent
 * posts (docs/analytics.md#posts-published-outside-herald). Kept apart from `posts` and
 * `post_targets`, so it never shows in the calendar, the library or the publisher; it only gets
 * metrics and a place in the analytics screen's top posts. One row per account and network id.
 */
export const externalPosts = pgTable(
  'external_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    platformId: uuid('platform_id')
      .notNull()
      .references(() => platforms.id),
    /** The post's id on the network. */
    externalId: text('external_id').notNull(),
    permalink: text('permalink'),
    /** The post's text as the network gives it (a caption, a message). */
    text: text('text'),
    /** The network's own picture URL (may expire: Instagram and TikTok sign theirs). */
    thumbnailUrl: text('thumbnail_url'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('external_posts_account_uq').on(t.integrationId, t.externalId),
    index('external_posts_org_published_idx').on(t.organizationId, t.publishedAt),
  ],
);

/** One reading of a post published outside Herald; same columns as `post_metric_snapshots`. */
export const externalPostMetricSnapshots = pgTable(
  'external_post_metric_snapshots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    externalPostId: uuid('external_post_id')
      .notNull()
      .references(() => externalPosts.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id').notNull(),
    checkpoint: text('checkpoint').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    ...postMetricColumns(),
    raw: jsonb('raw').$type<Record<string, number>>().notNull().default({}),
  },
  (t) => [index('external_post_metric_snapshots_post_idx').on(t.externalPostId, t.takenAt)],
);
