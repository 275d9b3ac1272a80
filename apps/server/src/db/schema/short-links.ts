/** Short links of published posts and the clicks they counted (docs/analytics.md#short-links). */
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { posts } from './posts.js';
import { postTargets } from './publishing.js';

/**
 * One link of one account's text of a post, as `PUBLIC_URL/l/<code>`. Made when the target is
 * sent, once per (target, position in the text): a run that sends the target again reuses it,
 * so the text it sends is the same. Only a count of clicks is kept, nothing of who clicked.
 */
export const shortLinks = pgTable(
  'short_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    targetId: uuid('target_id')
      .notNull()
      .references(() => postTargets.id, { onDelete: 'cascade' }),
    /** The link's place among the links of the target's text, from 0. */
    position: integer('position').notNull(),
    /** Where the short link leads: the link as written, with the post's UTM parameters. */
    url: text('url').notNull(),
    clicks: integer('clicks').notNull().default(0),
    lastClickedAt: timestamp('last_clicked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('short_links_code_uq').on(t.code),
    uniqueIndex('short_links_target_position_uq').on(t.targetId, t.position),
    index('short_links_org_post_idx').on(t.organizationId, t.postId),
    // Deleting a post deletes its links.
    index('short_links_post_idx').on(t.postId),
  ],
);
