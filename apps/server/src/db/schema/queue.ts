/** The posting queue (docs/queue-and-import.md): weekly time slots per account, and queued posts. */
import { index, integer, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { integrations } from './platforms.js';
import { posts } from './posts.js';

/**
 * One weekly slot of a connected account: a weekday (0 = Monday … 6 = Sunday) and a minute of
 * the day (0–1439), read as wall time in the organization's time zone.
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
