/** In-app notifications, and how each member wants to hear about them. */
import { NOTIFICATION_PRIORITIES, NOTIFICATION_TYPES } from '@herald/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/** One row per recipient (docs/product.md#notification-entity). */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    priority: text('priority', { enum: NOTIFICATION_PRIORITIES }).notNull(),
    message: text('message').notNull(),
    read: boolean('read').notNull().default(false),
    postId: uuid('post_id'),
    /**
     * Which state of the post's publications the notice sums up (the post's outcome): a second
     * announcement of the same state, from a run that settled together with another, records
     * nothing; a later state (a retry's outcome) records a new notice.
     */
    outcomeKey: text('outcome_key'),
    /** A failure notice whose post was fixed since (rescheduled, retried, or published). */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_org_idx').on(t.userId, t.organizationId, t.createdAt),
    index('notifications_post_idx')
      .on(t.postId, t.outcomeKey)
      .where(sql`post_id is not null`),
  ],
);

/**
 * One member's choices per kind of event and channel (docs/product.md#notification-preferences):
 * only what differs from the defaults matters; a member without a row has the defaults.
 */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Event → { inApp, email, digest } (packages/contract NOTIFICATION_EVENTS). */
    settings: jsonb('settings')
      .$type<Record<string, { inApp: boolean; email: boolean; digest: boolean }>>()
      .notNull()
      .default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] })],
);

/**
 * What is still to be sent outside the app, one row per recipient and channel: EMAIL goes out
 * within the minute, DIGEST once a day (docs/product.md#notification-preferences), WEBHOOK (one
 * per notification, no recipient) to the organization's incoming webhook within the minute. Written with the
 * notification; sent (or dropped, on a server without SMTP) by the delivery jobs.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Null for WEBHOOK: the organization's channel, not a person. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['EMAIL', 'DIGEST', 'WEBHOOK'] }).notNull(),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    message: text('message').notNull(),
    postId: uuid('post_id'),
    createdAt: createdAt(),
  },
  (t) => [index('notification_deliveries_channel_idx').on(t.channel, t.createdAt)],
);

/**
 * The organization's incoming webhook (Slack- or Teams-style) for publishing failures and
 * approvals (docs/product.md#notification-webhook). The URL is a secret: stored sealed with the
 * token key, and only its hint is ever shown back.
 */
export const notificationWebhooks = pgTable('notification_webhooks', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  urlSealed: text('url_sealed').notNull(),
  /** "https://hooks.slack.com/…a1b2": enough to recognise it, not to use it. */
  urlHint: text('url_hint').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
