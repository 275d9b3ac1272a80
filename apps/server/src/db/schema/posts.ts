/** Posts and their stored media. */
import { APPROVAL_ACTIONS, MEDIA_KINDS, POST_STATUSES, type LinkTracking } from '@herald/contract';
import {
  bigint,
  doublePrecision,
  integer,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/** A post of an organization: its text and when it goes out (docs/product.md#post-entity). */
export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    title: text('title'),
    status: text('status', { enum: POST_STATUSES }).notNull(),
    /** The shared text (the `default` entry when customized per platform). */
    content: text('content').notNull().default(''),
    /** Per-platform texts keyed by platform id, when the author customized them. */
    contentByPlatform: jsonb('content_by_platform').$type<Record<string, string>>(),
    /**
     * Link tracking for this post (docs/product.md#link-tracking): the UTM parameters added to its
     * links when it is published; null when the post's links go out as written.
     */
    linkTracking: jsonb('link_tracking').$type<LinkTracking>(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('posts_org_created_idx').on(t.organizationId, t.createdAt),
    index('posts_org_scheduled_idx').on(t.organizationId, t.scheduledAt),
    index('posts_org_status_idx').on(t.organizationId, t.status),
  ],
);

/** A stored file of a post, measured when it was uploaded. */
export const postMedia = pgTable(
  'post_media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    kind: text('kind', { enum: MEDIA_KINDS }).notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    durationSec: doublePrecision('duration_sec'),
    sha256: text('sha256').notNull(),
    /** Platform ids this file is for; null when it is shared by every platform of the post. */
    platformIds: jsonb('platform_ids').$type<string[]>(),
    /** The image's description for people who cannot see it, sent to each network that takes one. */
    altText: text('alt_text'),
    createdAt: createdAt(),
  },
  (t) => [index('post_media_post_idx').on(t.postId, t.position)],
);

/**
 * The approval history of a post (docs/product.md#approvals): who submitted, approved or
 * rejected it, when, and the reason given for a rejection.
 */
export const postApprovalEvents = pgTable(
  'post_approval_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: APPROVAL_ACTIONS }).notNull(),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('post_approval_events_post_idx').on(t.postId, t.createdAt)],
);

/**
 * The team's internal discussion of a post (docs/product.md#internal-comments): never sent to a
 * network. `mentionedUserIds` are the teammates the author @mentioned (and notified).
 */
export const postInternalComments = pgTable(
  'post_internal_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    mentionedUserIds: jsonb('mentioned_user_ids').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [index('post_internal_comments_post_idx').on(t.postId, t.createdAt)],
);
