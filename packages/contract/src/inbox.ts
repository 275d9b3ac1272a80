import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { PLATFORM_NAMES } from './platforms.js';
import { WebUrlSchema, webUrlInput } from './web-url.js';

/**
 * The unified inbox (docs/inbox.md): direct messages, comment threads and mentions of every
 * connected account in one list. A conversation belongs to one connected account (integration);
 * its messages keep the network's ids, so a message delivered twice is stored once.
 * Reading needs `dm:view`; replying and every action need `dm:send`.
 */

/** The seven labels every organization has; organizations add their own. */
export const INBOX_DEFAULT_LABELS = [
  'positive',
  'negative',
  'inquiry',
  'complaint',
  'appreciation',
  'order',
  'question',
] as const;

/** A DM thread, the comment thread of one post, or one mention. */
export const INBOX_CONVERSATION_KINDS = ['dm', 'comments', 'mention'] as const;
export type InboxConversationKind = (typeof INBOX_CONVERSATION_KINDS)[number];

export const INBOX_MESSAGE_KINDS = ['dm', 'comment', 'mention'] as const;
export type InboxMessageKind = (typeof INBOX_MESSAGE_KINDS)[number];

/** Open conversations are in the list; Done clears one until a new inbound message reopens it. */
export const INBOX_STATUSES = ['open', 'done'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

/**
 * Delivery of a message Herald sends: stored `pending` before the network call, `sent` with the
 * network's id, `failed` with the network's words (nothing went out), `uncertain` when the call's
 * outcome is unknown and reconciliation could not tell (the person chooses: mark sent or send again).
 */
export const INBOX_DELIVERY_STATES = ['pending', 'sent', 'failed', 'uncertain'] as const;
export type InboxDeliveryState = (typeof INBOX_DELIVERY_STATES)[number];

/** The longest label name and the most labels on one conversation. */
export const INBOX_LABEL_MAX = 40;

/** The colours an organization's own label may have (the seven defaults keep theirs). */
export const INBOX_LABEL_COLORS = [
  'slate',
  'red',
  'amber',
  'green',
  'teal',
  'blue',
  'violet',
  'pink',
] as const;
export type InboxLabelColor = (typeof INBOX_LABEL_COLORS)[number];
export const InboxOwnLabelSchema = z.object({
  name: z.string(),
  color: z.enum(INBOX_LABEL_COLORS).nullable(),
});
export type InboxOwnLabel = z.infer<typeof InboxOwnLabelSchema>;
export const INBOX_LABELS_PER_CONVERSATION = 10;
/** The longest internal note and saved reply Herald keeps (the network's own limit applies to replies). */
export const INBOX_NOTE_MAX = 5000;
export const INBOX_SAVED_REPLY_MAX = 2000;
export const INBOX_PAGE_SIZE_MAX = 100;
/**
 * The most own labels (beside the seven defaults) and saved replies one organization keeps: far
 * more than a team uses, small enough that every list of them stays a small answer.
 */
export const INBOX_OWN_LABELS_MAX = 100;
export const INBOX_SAVED_REPLIES_MAX = 200;

export const InboxPersonSchema = z.object({
  externalId: z.string(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  pictureUrl: WebUrlSchema.nullable(),
  /** The person on the network ("View profile"); null when the network has no public profile page. */
  profileUrl: WebUrlSchema.nullable(),
});
export type InboxPerson = z.infer<typeof InboxPersonSchema>;

/** The attachment types a reply may carry, where the network takes them. */
export const INBOX_REPLY_ATTACHMENT_TYPES = ['image', 'video', 'audio', 'file'] as const;
export type InboxReplyAttachmentType = (typeof INBOX_REPLY_ATTACHMENT_TYPES)[number];

export const InboxAttachmentSchema = z.object({
  type: z.enum(['image', 'video', 'audio', 'file', 'sticker', 'share']),
  /** Web addresses only (`isWebUrl`); anything else a network sent is dropped. */
  url: WebUrlSchema.nullable(),
  previewUrl: WebUrlSchema.nullable(),
  /** A shared post's caption or a file's name. */
  title: z.string().nullable(),
});
export type InboxAttachment = z.infer<typeof InboxAttachmentSchema>;

const TeammateSchema = z.object({ id: z.string(), displayName: z.string().nullable() });

/**
 * Whether Herald may reply now. Messenger and Instagram allow replies within 24 hours of the
 * customer's last message (7 days with the HUMAN_AGENT tag where the app has it); other kinds
 * have no window (`closesAt` null).
 */
export const InboxReplyWindowSchema = z.object({
  open: z.boolean(),
  /** When the window closes (ISO); null when there is none. */
  closesAt: z.string().nullable(),
  /** Why replying is disabled, in a sentence; null while open. */
  reason: z.string().nullable(),
});
export type InboxReplyWindow = z.infer<typeof InboxReplyWindowSchema>;

/** What can be done in this conversation; the screen shows only these. */
export const InboxCapabilitiesSchema = z.object({
  reply: z.boolean(),
  privateReply: z.boolean(),
  like: z.boolean(),
  hide: z.boolean(),
  deleteOnNetwork: z.boolean(),
  /**
   * Delete reaches only the organization's own replies, never what others wrote (a business deletes
   * its answer to a Google review, not the review). Absent: others' comments.
   */
  deleteOwnRepliesOnly: z.boolean().optional(),
  block: z.boolean(),
  /** The network's longest reply, in characters. */
  replyMaxLength: z.number().int().positive(),
  /** The attachment types a reply here may carry; empty: text only. */
  replyAttachments: z.array(z.enum(INBOX_REPLY_ATTACHMENT_TYPES)),
});
export type InboxCapabilities = z.infer<typeof InboxCapabilitiesSchema>;

export const InboxConversationSchema = z.object({
  id: z.string(),
  integrationId: z.string(),
  platform: z.enum(PLATFORM_NAMES),
  kind: z.enum(INBOX_CONVERSATION_KINDS),
  /** The connected account it belongs to. */
  account: z.object({
    id: z.string(),
    name: z.string().nullable(),
    username: z.string().nullable(),
    pictureUrl: WebUrlSchema.nullable(),
  }),
  /** The other side: the DM's customer, the latest commenter, the mention's author. */
  participant: InboxPersonSchema,
  /** The name the list shows. */
  title: z.string(),
  lastMessage: z
    .object({
      text: z.string(),
      at: z.string(),
      direction: z.enum(['in', 'out']),
      senderName: z.string().nullable(),
    })
    .nullable(),
  lastMessageAt: z.string(),
  /**
   * The stars of the review this conversation is (Google Business Profile: each review is a
   * conversation of its own), 1 to 5; null for every other conversation.
   */
  rating: z.number().int().min(1).max(5).nullable(),
  unread: z.boolean(),
  status: z.enum(INBOX_STATUSES),
  labels: z.array(z.string()),
  assignee: TeammateSchema.nullable(),
  /** For comment threads and mentions: the post they are on (Herald's post when it published it). */
  post: z
    .object({
      postId: z.string().nullable(),
      externalId: z.string(),
      permalink: WebUrlSchema.nullable(),
      text: z.string().nullable(),
    })
    .nullable(),
  window: InboxReplyWindowSchema,
  capabilities: InboxCapabilitiesSchema,
});
export type InboxConversation = z.infer<typeof InboxConversationSchema>;

export const InboxMessageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  /** The network's id; null while a reply is pending or after it failed. */
  externalId: z.string().nullable(),
  kind: z.enum(INBOX_MESSAGE_KINDS),
  direction: z.enum(['in', 'out']),
  sender: z.object({
    name: z.string().nullable(),
    username: z.string().nullable(),
    pictureUrl: WebUrlSchema.nullable(),
    /** The teammate who sent it from Herald; null for messages that came from the network. */
    teammate: TeammateSchema.nullable(),
  }),
  text: z.string(),
  /**
   * A review's stars, 1 to 5 (Google Business Profile), kept apart from its words; null for
   * every message that is not a review, and for a review without a rating.
   */
  rating: z.number().int().min(1).max(5).nullable(),
  createdAt: z.string(),
  attachments: z.array(InboxAttachmentSchema),
  /** For comments: the comment this one answers (Herald's message id when known). */
  parentId: z.string().nullable(),
  /** A private reply (Messenger/Instagram DM sent in answer to this comment). */
  privateReply: z.boolean(),
  /**
   * A private reply's other side, once the network's echo of it arrived: on the DM, the comment
   * it answered (`commentText`); in the comment thread, the DM it became (`commentText` null).
   */
  privateReplyLink: z
    .object({
      conversationId: z.string(),
      messageId: z.string(),
      commentText: z.string().nullable(),
    })
    .nullable(),
  deleted: z.boolean(),
  hidden: z.boolean(),
  liked: z.boolean(),
  edited: z.boolean(),
  /** Our replies only. */
  delivery: z.enum(INBOX_DELIVERY_STATES).nullable(),
  /** Why a reply failed or is uncertain, in the network's words where it gave some. */
  error: z.string().nullable(),
  /** Whether a private reply to this inbound comment is still possible (once, within 7 days). */
  canPrivateReply: z.boolean(),
});
export type InboxMessage = z.infer<typeof InboxMessageSchema>;

export const InboxNoteSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  text: z.string(),
  author: TeammateSchema.nullable(),
  createdAt: z.string(),
});
export type InboxNote = z.infer<typeof InboxNoteSchema>;

/** What Herald can read for one connected account, said once per account on the screen. */
export const InboxAccountSchema = z.object({
  integrationId: z.string(),
  platform: z.enum(PLATFORM_NAMES),
  name: z.string().nullable(),
  dm: z.boolean(),
  comments: z.boolean(),
  mentions: z.boolean(),
  /**
   * Its comments are the reviews people leave (Google Business Profile): the network has no
   * direct messages to bring in, so reviews are all its inbox can hold.
   */
  reviews: z.boolean(),
  /** A plain sentence about what this network does not give ("Threads has no API for direct messages…"); null when nothing is missing. */
  limitation: z.string().nullable(),
  /** What history was imported on connect ("Instagram gives only the 20 newest messages of each conversation."). */
  historyNote: z.string().nullable(),
  lastSyncedAt: z.string().nullable(),
  /** The last sync's or subscription check's problem, in a sentence; null when all is well. */
  syncError: z.string().nullable(),
});
export type InboxAccount = z.infer<typeof InboxAccountSchema>;

const csv = (schema: z.ZodString) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value) =>
      value === undefined
        ? []
        : (Array.isArray(value) ? value : value.split(',')).map((v) => v.trim()).filter(Boolean),
    )
    .pipe(z.array(schema));

/**
 * `GET /organizations/{orgId}/inbox/conversations`: newest message first. `tab` is the spec's
 * tabs (all, unread, or a network name); `status` defaults to open. `assignee` is `me`,
 * `unassigned` or a user id.
 */
export const InboxConversationsQuerySchema = z.object({
  tab: z
    .union([z.enum(['all', 'unread']), z.enum(PLATFORM_NAMES)], {
      error: 'Choose All, Unread or a network.',
    })
    .default('all'),
  status: z.enum(INBOX_STATUSES, { error: 'Status is open or done.' }).default('open'),
  labels: csv(z.string().min(1).max(INBOX_LABEL_MAX)),
  q: z.string().trim().max(200, 'Keep the search under 200 characters.').optional(),
  assignee: z.string().min(1).optional(),
  integrationId: z.string().min(1).optional(),
  cursor: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(INBOX_PAGE_SIZE_MAX).default(30),
});
export type InboxConversationsQuery = z.input<typeof InboxConversationsQuerySchema>;

export const InboxConversationsResponseSchema = z.object({
  status: z.literal('success'),
  data: z.object({ conversations: z.array(InboxConversationSchema) }),
  meta: z.object({ nextCursor: z.string().nullable() }),
});

/**
 * `GET /organizations/{orgId}/inbox/conversations/{conversationId}`: the conversation with its
 * messages oldest first (the newest `limit`; `before` pages back) and its internal notes.
 */
export const InboxThreadQuerySchema = z.object({
  before: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(INBOX_PAGE_SIZE_MAX).default(50),
});
export const InboxThreadResponseSchema = successEnvelope(
  z.object({
    conversation: InboxConversationSchema,
    messages: z.array(InboxMessageSchema),
    notes: z.array(InboxNoteSchema),
    /** Cursor for older messages; null at the start of what Herald holds. */
    olderCursor: z.string().nullable(),
  }),
);

/** `GET /organizations/{orgId}/inbox/summary`: the badge's count and what each account gives. */
export const InboxSummaryResponseSchema = successEnvelope(
  z.object({
    /** Open conversations with unread messages the caller may see (sidebar badge, dashboard). */
    unreadCount: z.number().int().min(0),
    accounts: z.array(InboxAccountSchema),
    /** The organization's labels: the seven defaults, then its own. */
    labels: z.array(z.string()),
    /** Its own labels with their colours, oldest first. */
    ownLabels: z.array(InboxOwnLabelSchema).default([]),
  }),
);

/**
 * `POST /organizations/{orgId}/inbox/conversations/{conversationId}/messages` (dm:send).
 * `clientKey` is the idempotency key the composer makes once per draft: two presses of Send,
 * or two teammates sending the same draft, send one message. `privateReplyTo` sends a private
 * reply (Messenger/Instagram DM) to that inbound comment; `replyTo` answers that comment in its
 * thread (the post itself when absent).
 */
export const InboxReplyRequestSchema = z.object({
  text: z
    .string({ error: 'Reply cannot be empty.' })
    .trim()
    .min(1, 'Reply cannot be empty.')
    .max(20_000, 'Keep the reply under 20,000 characters.'),
  clientKey: z.string().min(8).max(100),
  replyTo: z.string().min(1).optional(),
  privateReplyTo: z.string().min(1).optional(),
  /**
   * Files to send with the reply. Each network takes only some types in replies
   * (`capabilities.replyAttachments`); any other type is refused (400) and nothing is sent.
   */
  attachments: z
    .array(
      z.object({
        type: z.enum(INBOX_REPLY_ATTACHMENT_TYPES, {
          error: 'An attachment is an image, a video, an audio file or a file.',
        }),
        url: webUrlInput('An attachment needs the web address (http or https) of its file.'),
      }),
    )
    .max(10, 'Send at most 10 attachments with one reply.')
    .optional(),
});
export type InboxReplyRequest = z.infer<typeof InboxReplyRequestSchema>;
export const InboxMessageResponseSchema = successEnvelope(
  z.object({ message: InboxMessageSchema }),
);

/**
 * `POST …/messages/{messageId}/resolve` (dm:send) for an `uncertain` reply: `sent` records it as
 * delivered (the person saw it on the network), `resend` sends it again, `discard` drops it.
 */
export const InboxResolveRequestSchema = z.object({
  action: z.enum(['sent', 'resend', 'discard'], { error: 'Choose sent, resend or discard.' }),
});

/** `PATCH /organizations/{orgId}/inbox/conversations/{conversationId}` (dm:send): any of these. */
export const InboxConversationUpdateSchema = z
  .object({
    unread: z.boolean().optional(),
    status: z.enum(INBOX_STATUSES).optional(),
    /** A member's user id, or null to unassign; the assignee is notified. */
    assigneeId: z.string().min(1).nullable().optional(),
    labels: z
      .array(z.string().trim().min(1).max(INBOX_LABEL_MAX))
      .max(
        INBOX_LABELS_PER_CONVERSATION,
        `A conversation takes at most ${INBOX_LABELS_PER_CONVERSATION} labels.`,
      )
      .optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'Say what to change.',
  });
export type InboxConversationUpdate = z.infer<typeof InboxConversationUpdateSchema>;
export const InboxConversationResponseSchema = successEnvelope(
  z.object({ conversation: InboxConversationSchema }),
);

/**
 * Actions on one message (dm:send): `POST …/messages/{messageId}/like`, `…/hide` with
 * `{hidden}`, `DELETE …/messages/{messageId}` (deletes the comment on the network, after the
 * screen's confirmation). `DELETE …/conversations/{conversationId}` archives it in Herald.
 * `POST …/conversations/{conversationId}/block` blocks the person where the network allows it.
 */
export const InboxHideRequestSchema = z.object({ hidden: z.boolean() });
export const InboxLikeRequestSchema = z.object({ liked: z.boolean().default(true) });

/** `POST …/conversations/{conversationId}/notes` (dm:send): a note only teammates see. */
export const InboxNoteRequestSchema = z.object({
  text: z
    .string({ error: 'Write the note first.' })
    .trim()
    .min(1, 'Write the note first.')
    .max(INBOX_NOTE_MAX, `Keep the note under ${INBOX_NOTE_MAX} characters.`),
});
export const InboxNoteResponseSchema = successEnvelope(z.object({ note: InboxNoteSchema }));

/** `POST …/conversations/{conversationId}/typing` (dm:send): shows "X is replying…" to others viewing it. */
export const InboxTypingRequestSchema = z.object({ typing: z.boolean() });

/**
 * Saved replies of an organization: `GET|POST /organizations/{orgId}/inbox/saved-replies`,
 * `DELETE …/{id}`. An organization keeps at most `INBOX_SAVED_REPLIES_MAX`; the list comes a page
 * at a time, by name.
 */
export const InboxSavedReplySchema = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
});
export type InboxSavedReply = z.infer<typeof InboxSavedReplySchema>;
export const InboxSavedReplyRequestSchema = z.object({
  title: z
    .string({ error: 'Give the saved reply a name.' })
    .trim()
    .min(1, 'Give the saved reply a name.')
    .max(80, 'Keep the name under 80 characters.'),
  text: z
    .string({ error: 'Write the reply text.' })
    .trim()
    .min(1, 'Write the reply text.')
    .max(INBOX_SAVED_REPLY_MAX, `Keep the reply under ${INBOX_SAVED_REPLY_MAX} characters.`),
});
/**
 * `GET …/inbox/saved-replies?q&cursor&limit`: by name (then id), `limit` at a time (50 unless
 * told); `q` keeps those whose name or text contains it; `meta.nextCursor` asks for the next page.
 */
export const InboxSavedRepliesQuerySchema = z.object({
  q: z.string().trim().max(200, 'Keep the search under 200 characters.').optional(),
  cursor: z.string().min(1).max(500).optional(),
  limit: z.coerce.number().int().min(1).max(INBOX_PAGE_SIZE_MAX).default(50),
});
export type InboxSavedRepliesQuery = z.input<typeof InboxSavedRepliesQuerySchema>;
export const InboxSavedRepliesResponseSchema = successEnvelope(
  z.object({ savedReplies: z.array(InboxSavedReplySchema) }),
).extend({ meta: z.object({ nextCursor: z.string().nullable() }) });

const labelName = z
  .string({ error: 'Name the label.' })
  .trim()
  .toLowerCase()
  .min(1, 'Name the label.')
  .max(INBOX_LABEL_MAX, `Keep the label under ${INBOX_LABEL_MAX} characters.`);
const labelColor = z.enum(INBOX_LABEL_COLORS, {
  error: `Choose one of the colours: ${INBOX_LABEL_COLORS.join(', ')}.`,
});

/**
 * The organization's own labels (at most `INBOX_OWN_LABELS_MAX`, so every answer carries all of
 * them): `POST /organizations/{orgId}/inbox/labels` `{name, color?}`,
 * `PATCH …/labels/{name}` `{name?, color?}` (rename — every conversation keeps it — or
 * recolour), `DELETE …/labels/{name}` (taken off every conversation). All dm:send.
 */
export const InboxLabelRequestSchema = z.object({
  name: labelName,
  color: labelColor.nullable().optional(),
});
export const InboxLabelUpdateSchema = z
  .object({ name: labelName.optional(), color: labelColor.nullable().optional() })
  .refine((v) => v.name !== undefined || v.color !== undefined, {
    message: 'Say what to change: a new name or a colour.',
  });
/** What every label route answers: all labels (defaults first) and the organization's own. */
export const InboxLabelsResponseSchema = successEnvelope(
  z.object({ labels: z.array(z.string()), ownLabels: z.array(InboxOwnLabelSchema) }),
);

/**
 * Events on the live stream (`GET /notifications/stream`), beside `notification`:
 * `inbox` when a conversation of the organization changed (new message, read, assigned, done),
 * `inbox-typing` while a teammate writes a reply in a conversation.
 */
export const InboxStreamEventSchema = z.object({
  organizationId: z.string(),
  conversationId: z.string(),
  /** What changed: a message arrived or was updated, or the conversation's state changed. */
  change: z.enum(['message', 'conversation']),
});
export type InboxStreamEvent = z.infer<typeof InboxStreamEventSchema>;
export const InboxTypingEventSchema = z.object({
  organizationId: z.string(),
  conversationId: z.string(),
  user: TeammateSchema,
  typing: z.boolean(),
});
export type InboxTypingEvent = z.infer<typeof InboxTypingEventSchema>;
