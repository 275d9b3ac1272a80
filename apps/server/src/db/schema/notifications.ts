/** In-app notifications. */
import { NOTIFICATION_PRIORITIES, NOTIFICATION_TYPES } from '@herald/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
