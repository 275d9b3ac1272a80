/** The posting queue (docs/queue-and-import.md): weekly time slots per account, and queued posts. */
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { integrations } from './platforms.js';
import { posts } from './posts.js';
import { users } from './users.js';

/**
 * One weekly slot of a connected account: a weekday (0 = Monday … 6 = Sunday) and a minute of
 * the day (0–1439), read as wall time in the queue's time zone (the organization's when it has
 * one, else `queue_time_zones`).
 */
export const queueSlots = pgTable(
  'queue_slots',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    weekday: integer('weekday').notNull(),
    minute: integer('minute').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.integrationId, t.weekday, t.minute] }),
    index('queue_slots_org_idx').on(t.organizationId),
  ],
);

/**
 * A post placed by "Add to queue", and the slot time it was given. A post whose scheduled time
 * no longer equals `slotAt` was moved by hand and has left the queue (re-shuffle leaves it).
 */
export const queuedPosts = pgTable(
  'queued_posts',
  {
    postId: uuid('post_id')
      .primaryKey()
      .references(() => posts.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    slotAt: timestamp('slot_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('queued_posts_org_idx').on(t.organizationId, t.slotAt)],
);

/**
 * The zone the organization's queue times were saved in (docs/queue-and-import.md#the-queues-time-zone):
 * the slots are one week for the whole organization, so without an organization time zone they
 * need one zone that does not change with whoever reads them. Written by the first save of queue
 * times: the organization's zone when it has one (so clearing it later moves no slot), else the
 * zone of the member who saved (`setByUserId`); kept until the organization's zone replaces it.
 */
export const queueTimeZones = pgTable('queue_time_zones', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  timeZone: text('time_zone').notNull(),
  /** Whose own zone it was; null when it was the organization's (or they were deleted). */
  setByUserId: uuid('set_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
