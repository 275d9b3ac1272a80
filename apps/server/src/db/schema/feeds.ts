/** Feeds whose new items become posts (docs/feeds.md), and every item each one has listed. */
import { FEED_DESTINATIONS, FEED_ITEM_OUTCOMES } from '@herald/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { posts } from './posts.js';
import { users } from './users.js';

/**
 * One feed of an organization. The posts it makes are written as the member who added it, so
 * they get that member's access and approval rule; `etag`/`last_modified` are kept verbatim for
 * conditional requests, with the address they belong to (validators are per final URL).
 */
export const feeds = pgTable(
  'feeds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    url: text('url').notNull(),
    title: text('title'),
    integrationIds: jsonb('integration_ids').$type<string[]>().notNull(),
    destination: text('destination', { enum: FEED_DESTINATIONS }).notNull(),
    template: text('template'),
    importLatest: integer('import_latest').notNull().default(0),
    paused: boolean('paused').notNull().default(false),
    /** Set once the first check has read the feed: from then on every unseen item is new. */
    primedAt: timestamp('primed_at', { withTimezone: true }),
    etag: text('etag'),
    lastModified: text('last_modified'),
    validatorsUrl: text('validators_url'),
    /** The feed's own `ttl` (RSS, minutes): no check sooner than this after a good one. */
    ttlMinutes: integer('ttl_minutes'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    errorCount: integer('error_count').notNull().default(0),
    /**
     * WebSub (docs/feeds.md#websub-push): the hub and topic the feed advertises, the state of
     * Herald's subscription (`pending` until the hub verifies it), when its lease ends, and the
     * nonce its secret is derived from (the secret itself is never stored).
     */
    websubHub: text('websub_hub'),
    websubTopic: text('websub_topic'),
    websubState: text('websub_state', { enum: ['pending', 'subscribed', 'failed'] }),
    websubNonce: text('websub_nonce'),
    websubRequestedAt: timestamp('websub_requested_at', { withTimezone: true }),
    websubLeaseExpiresAt: timestamp('websub_lease_expires_at', { withTimezone: true }),
    websubError: text('websub_error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('feeds_org_idx').on(t.organizationId),
    index('feeds_due_idx').on(t.nextCheckAt),
    index('feeds_websub_lease_idx').on(t.websubLeaseExpiresAt),
  ],
);

/**
 * Every item a feed has listed, once: the unique indexes on its guid (Atom id, JSON Feed id) and
 * on its link are what make an item a post at most once, even when two checks run together (the
 * second insert waits for the first and then finds the row).
 */
export const feedItems = pgTable(
  'feed_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    feedId: uuid('feed_id')
      .notNull()
      .references(() => feeds.id, { onDelete: 'cascade' }),
    guid: text('guid'),
    link: text('link'),
    title: text('title'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    outcome: text('outcome', { enum: FEED_ITEM_OUTCOMES }).notNull(),
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'set null' }),
    error: text('error'),
    /** How many checks tried to make it a post (a failed item is tried again up to a cap). */
    attempts: integer('attempts').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('feed_items_guid_uq')
      .on(t.feedId, t.guid)
      .where(sql`${t.guid} is not null`),
    uniqueIndex('feed_items_link_uq')
      .on(t.feedId, t.link)
      .where(sql`${t.link} is not null`),
    index('feed_items_feed_idx').on(t.feedId, t.createdAt),
  ],
);
