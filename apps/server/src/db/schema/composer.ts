/** The composer's own storage: each member's unfinished work (docs/product.md#composer-autosave). */
import type { ComposerDraftBody } from '@herald/contract';
import { jsonb, pgTable, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';
import { posts } from './posts.js';
import { users } from './users.js';

/**
 * What a member has typed in the composer and not sent: one per member, organization and post
 * being edited (`post_id` null: a new post), replaced on every autosave. It goes with the post,
 * the member or the organization.
 */
export const composerDrafts = pgTable(
  'composer_drafts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'cascade' }),
    body: jsonb('body').$type<ComposerDraftBody>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // A new post's draft has no post: null counts as one value, so a member has one such draft.
  (t) => [
    unique('composer_drafts_owner_post_unique')
      .on(t.organizationId, t.userId, t.postId)
      .nullsNotDistinct(),
  ],
);
