/** The composer's own storage: each member's unfinished work and the organization's hashtag groups. */
import type { ComposerDraftBody } from '@herald/contract';
import { index, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
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

/** A named set of hashtags of the organization, inserted into a post at once. */
export const hashtagGroups = pgTable(
  'hashtag_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    hashtags: jsonb('hashtags').$type<string[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('hashtag_groups_org_idx').on(t.organizationId, t.name)],
);
