/** Posts and their stored media. */
import {
  APPROVAL_ACTIONS,
  GUEST_DECISIONS,
  MEDIA_KINDS,
  POST_STATUSES,
  type CropRatio,
  type LinkTracking,
  type PostSource,
} from '@herald/contract';
import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
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
    /** The API key the creator made it through (docs/api.md); null from the app. No foreign key. */
    createdByApiKeyId: uuid('created_by_api_key_id'),
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
    /**
     * Whether its links go out as Herald's short links (docs/analytics.md#short-links); null:
     * as the organization's setting says when it is published.
     */
    shortLinks: boolean('short_links'),
    /** Where Herald got it when no one wrote it (docs/feeds.md: a feed's item); null: by hand. */
    source: jsonb('source').$type<PostSource>(),
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

/**
 * A file of the organization's media library (docs/media-library.md): every upload, kept once per
 * content (`sha256` is unique in the organization), and the crops made from it. Post files that
 * use it point at it and share its stored keys; its files are removed only with the item.
 */
export const mediaLibraryItems = pgTable(
  'media_library_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
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
    /** Saved with the item and offered as the default when it is reused. */
    altText: text('alt_text'),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    uploadedByUserId: uuid('uploaded_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    /** The item this one was cropped from (no foreign key: the crop outlives its original). */
    derivedFromId: uuid('derived_from_id'),
    cropRatio: text('crop_ratio').$type<CropRatio>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('media_library_items_org_sha_key').on(t.organizationId, t.sha256),
    index('media_library_items_org_created_idx').on(t.organizationId, t.createdAt),
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
    /** Its item in the organization's media library; null for files stored before the library. */
    libraryItemId: uuid('library_item_id').references(() => mediaLibraryItems.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [
    index('post_media_post_idx').on(t.postId, t.position),
    index('post_media_library_item_idx').on(t.libraryItemId),
  ],
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
    /**
     * A client who decided through an approval link (no account: `userId` is null), as the
     * link named them; both null for a member's step.
     */
    guestName: text('guest_name'),
    guestEmail: text('guest_email'),
    action: text('action', { enum: APPROVAL_ACTIONS }).notNull(),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('post_approval_events_post_idx').on(t.postId, t.createdAt)],
);

/**
 * A link that lets a client without an account approve posts or ask for changes
 * (docs/product.md#client-approval-links). Only the SHA-256 hash of its random token is kept;
 * the token itself is shown once to the sender.
 */
export const approvalLinks = pgTable(
  'approval_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    approverName: text('approver_name'),
    approverEmail: text('approver_email'),
    message: text('message'),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedByUserId: uuid('revoked_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    uniqueIndex('approval_links_token_key').on(t.tokenHash),
    index('approval_links_org_created_idx').on(t.organizationId, t.createdAt),
  ],
);

/**
 * A post of an approval link and the client's decision about it (one at most). The post's
 * `updated_at` when the link was made tells whether it changed since; a deleted post leaves the
 * row with its label, so the link can still say what became of it.
 */
export const approvalLinkPosts = pgTable(
  'approval_link_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => approvalLinks.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'set null' }),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    postUpdatedAt: timestamp('post_updated_at', { withTimezone: true }).notNull(),
    decision: text('decision', { enum: GUEST_DECISIONS }),
    comment: text('comment'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('approval_link_posts_link_idx').on(t.linkId, t.position),
    index('approval_link_posts_post_idx').on(t.postId),
  ],
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
