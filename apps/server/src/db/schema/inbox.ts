/**
 * The unified inbox (docs/inbox.md): conversations of connected accounts and their messages,
 * keyed by the networks' ids so a message delivered twice is stored once; the team's notes,
 * labels and saved replies; the raw webhook deliveries and where polling stands per account.
 */
import {
  INBOX_CONVERSATION_KINDS,
  INBOX_DELIVERY_STATES,
  INBOX_MESSAGE_KINDS,
  INBOX_STATUSES,
  type InboxAttachment,
  type InboxPerson,
} from '@herald/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { integrations } from './platforms.js';
import { posts } from './posts.js';
import { users } from './users.js';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** A DM thread, the comment thread of one post, or one mention, of one connected account. */
export const inboxConversations = pgTable(
  'inbox_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** The network's name ('Facebook'), copied from the account: the tabs filter on it. */
    platform: text('platform').notNull(),
    kind: text('kind', { enum: INBOX_CONVERSATION_KINDS }).notNull(),
    /** DM thread id (Meta PSID/IGSID, X dm_conversation_id), root post id, or mention id. */
    threadExternalId: text('thread_external_id').notNull(),
    participantExternalId: text('participant_external_id'),
    participant: jsonb('participant').$type<InboxPerson>(),
    title: text('title').notNull(),
    rootPostExternalId: text('root_post_external_id'),
    rootPostPermalink: text('root_post_permalink'),
    rootPostText: text('root_post_text'),
    /** Herald's post when the root post is one it published (matched by the target's external id). */
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'set null' }),
    lastMessagePreview: text('last_message_preview'),
    lastMessageDirection: text('last_message_direction', { enum: ['in', 'out'] }),
    lastMessageSenderName: text('last_message_sender_name'),
    /** The network's time of the newest message (never the arrival time): the list's order. */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
    /** The customer's newest message (inbound only): where a messaging window starts. */
    lastInboundAt: timestamp('last_inbound_at', { withTimezone: true }),
    /** The stars of the review this conversation is (Google Business Profile), 1 to 5. */
    rating: smallint('rating'),
    unread: boolean('unread').notNull().default(false),
    status: text('status', { enum: INBOX_STATUSES }).notNull().default('open'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    assigneeUserId: uuid('assignee_user_id').references(() => users.id, { onDelete: 'set null' }),
    labels: text('labels')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('inbox_conversations_thread_key').on(t.integrationId, t.kind, t.threadExternalId),
    // The list: an organization's open (or done) conversations, newest first. NULLS FIRST is
    // what `order by … desc` means: an index in the other null order cannot serve the list.
    index('inbox_conversations_list_idx')
      .on(t.organizationId, t.status, t.lastMessageAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.archivedAt} is null`),
    // The Unread tab and the badge's count.
    index('inbox_conversations_unread_idx')
      .on(t.organizationId, t.status, t.lastMessageAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.archivedAt} is null and ${t.unread}`),
    // A network's tab.
    index('inbox_conversations_platform_idx')
      .on(
        t.organizationId,
        t.platform,
        t.status,
        t.lastMessageAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
      )
      .where(sql`${t.archivedAt} is null`),
    // One account's conversations (the account filter), and its unread ones: the filtered page
    // (unread + label + account) reads a few rows per hit instead of the organization's unread.
    index('inbox_conversations_account_idx')
      .on(
        t.organizationId,
        t.integrationId,
        t.status,
        t.lastMessageAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
      )
      .where(sql`${t.archivedAt} is null`),
    index('inbox_conversations_account_unread_idx')
      .on(
        t.organizationId,
        t.integrationId,
        t.status,
        t.lastMessageAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
      )
      .where(sql`${t.archivedAt} is null and ${t.unread}`),
    index('inbox_conversations_labels_idx').using('gin', t.labels),
  ],
);

/** One message, comment or mention; our replies carry the composer's idempotency key. */
export const inboxMessages = pgTable(
  'inbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => inboxConversations.id, { onDelete: 'cascade' }),
    /** The network's id; null while our reply is pending, failed or uncertain. */
    externalId: text('external_id'),
    /** The composer's key for a reply Herald sends: one message per draft. */
    clientKey: text('client_key'),
    kind: text('kind', { enum: INBOX_MESSAGE_KINDS }).notNull(),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    author: jsonb('author').$type<InboxPerson>(),
    text: text('text').notNull(),
    /** A review's stars, 1 to 5 (Google Business Profile), apart from its words. */
    rating: smallint('rating'),
    /** The network's time. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    attachments: jsonb('attachments').$type<InboxAttachment[]>().notNull().default([]),
    parentExternalId: text('parent_external_id'),
    deleted: boolean('deleted').notNull().default(false),
    hidden: boolean('hidden').notNull().default(false),
    liked: boolean('liked').notNull().default(false),
    edited: boolean('edited').notNull().default(false),
    delivery: text('delivery', { enum: INBOX_DELIVERY_STATES }),
    error: text('error'),
    sentByUserId: uuid('sent_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Our private reply: the inbound comment (its external id) it answers. */
    privateReplyTo: text('private_reply_to'),
    /**
     * Our reply: a digest of the request as first stored (text, files, private or not), so a
     * retried draft key is matched against what was asked, not the row a webhook echo rewrote.
     */
    requestFingerprint: text('request_fingerprint'),
    /** On an inbound comment: when a private reply to it went out (Meta allows one). */
    privateRepliedAt: timestamp('private_replied_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('inbox_messages_external_key').on(t.conversationId, t.externalId),
    uniqueIndex('inbox_messages_client_key').on(t.conversationId, t.clientKey),
    index('inbox_messages_thread_idx').on(
      t.conversationId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('inbox_messages_pending_idx')
      .on(t.delivery, t.updatedAt)
      .where(sql`${t.delivery} = 'pending'`),
    // A private reply and its DM echo share the network's id (docs/inbox.md#private-replies);
    // only our own messages, so inbound ingestion never touches it.
    index('inbox_messages_out_external_idx')
      .on(t.organizationId, t.externalId)
      .where(sql`${t.direction} = 'out' and ${t.externalId} is not null`),
  ],
);

/** A note only teammates see; never sent. */
export const inboxNotes = pgTable(
  'inbox_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => inboxConversations.id, { onDelete: 'cascade' }),
    authorUserId: uuid('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('inbox_notes_conversation_idx').on(t.conversationId, t.createdAt)],
);

export const inboxSavedReplies = pgTable(
  'inbox_saved_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    text: text('text').notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [index('inbox_saved_replies_org_idx').on(t.organizationId, t.title)],
);

/** An organization's own labels, beside the seven every organization has. */
export const inboxLabels = pgTable(
  'inbox_labels',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** One of INBOX_LABEL_COLORS; null: the screen's neutral colour. */
    color: text('color'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.name] })],
);

/**
 * A webhook delivery as it arrived (after its signature was checked): processed by a job, so
 * the network gets its 200 at once. `error` says why a delivery could not be read.
 */
export const inboxWebhookEvents = pgTable(
  'inbox_webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    body: bytea('body').notNull(),
    /** The few headers worth keeping (content type, signature, delivery id). */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /** Until when a job processes it (claimed in batches; a stopped job's claim lapses). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [
    index('inbox_webhook_events_unprocessed_idx')
      .on(t.receivedAt)
      .where(sql`${t.processedAt} is null`),
  ],
);

/** Where reading one connected account's inbox stands: polling cursor, schedule, subscription. */
export const inboxSyncState = pgTable(
  'inbox_sync_state',
  {
    integrationId: uuid('integration_id')
      .primaryKey()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    cursor: jsonb('cursor').$type<Record<string, unknown>>(),
    nextPollAt: timestamp('next_poll_at', { withTimezone: true }),
    /** Until when one process polls the account: a second poll meanwhile is skipped. */
    pollClaimedUntil: timestamp('poll_claimed_until', { withTimezone: true }),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /** The last poll's or subscription check's problem, as a sentence; null when all is well. */
    syncError: text('sync_error'),
    /** Whether the app receives this account's webhooks (null: the network has none). */
    subscribed: boolean('subscribed'),
    subscriptionCheckedAt: timestamp('subscription_checked_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('inbox_sync_state_due_idx').on(t.nextPollAt)],
);
