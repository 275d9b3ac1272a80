/**
 * Evergreen collections and repeating posts (docs/evergreen.md): posts that go out again, as
 * copies, in the posting queue's empty slots or every N days.
 */
import { REPEAT_UNITS } from '@herald/contract';
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
 * A collection of posts that refill the empty slots of its accounts' common queue times, in
 * turn. Its copies are made as the member who last saved it (their access, their approval rule).
 */
export const evergreenCollections = pgTable(
  'evergreen_collections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    name: text('name').notNull(),
    integrationIds: jsonb('integration_ids').$type<string[]>().notNull(),
    /** A post of the collection goes out at most once in this many days. */
    minDaysBetween: integer('min_days_between').notNull(),
    /** Each post goes out at most this many times from the collection; null: no end. */
    endAfterCycles: integer('end_after_cycles'),
    /** No slot after this moment is filled; null: no end date. */
    endAt: timestamp('end_at', { withTimezone: true }),
    paused: boolean('paused').notNull().default(false),
    /** Why the last fill could not be made, in plain words (null when it worked). */
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('evergreen_collections_org_idx').on(t.organizationId)],
);

/** A post of a collection, in the collection's order. The post itself is never changed. */
export const evergreenPosts = pgTable(
  'evergreen_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    collectionId: uuid('collection_id')
      .notNull()
      .references(() => evergreenCollections.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('evergreen_posts_collection_post_key').on(t.collectionId, t.postId),
    index('evergreen_posts_post_idx').on(t.postId),
  ],
);

/**
 * Every copy a collection made: the slot it was given and the post it copies. A post's last use
 * and count are read from here, so a deleted copy still counts (its slot is free again, and is
 * filled by the next post in turn).
 */
export const evergreenFills = pgTable(
  'evergreen_fills',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    collectionId: uuid('collection_id')
      .notNull()
      .references(() => evergreenCollections.id, { onDelete: 'cascade' }),
    /** The collection's post copied (it stays counted after the post leaves the collection). */
    sourcePostId: uuid('source_post_id').notNull(),
    /** The copy; null once it was deleted. */
    copyPostId: uuid('copy_post_id').references(() => posts.id, { onDelete: 'set null' }),
    slotAt: timestamp('slot_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // One copy per collection and slot, whatever two workers decide at once.
    uniqueIndex('evergreen_fills_collection_slot_key').on(t.collectionId, t.slotAt),
    index('evergreen_fills_source_idx').on(t.collectionId, t.sourcePostId, t.slotAt),
    // Deleting a post clears the fills that name it as their copy.
    index('evergreen_fills_copy_idx').on(t.copyPostId),
  ],
);

/**
 * A post that repeats every `every` days or weeks until `until`. `postId` is the latest
 * occurrence: when it goes out the next is made from it (a copy, so edits carry forward) and
 * `postId` moves to the new one. Deleting the latest occurrence stops the repeat.
 */
export const postRepeats = pgTable(
  'post_repeats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    every: integer('every').notNull(),
    unit: text('unit', { enum: REPEAT_UNITS }).notNull(),
    until: timestamp('until', { withTimezone: true }).notNull(),
    occurrences: integer('occurrences').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('post_repeats_post_key').on(t.postId)],
);
