/** In-app notifications. */
import { NOTIFICATION_PRIORITIES, NOTIFICATION_TYPES } from '@herald/contract';
import { boolean, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
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
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_org_idx').on(t.userId, t.organizationId, t.createdAt)],
);
