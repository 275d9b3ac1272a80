import type {
  InboxAttachment,
  InboxPerson,
  InboxReplyAttachmentType,
  PlatformName,
} from '@herald/contract';
import type { StoredAccount } from './types.js';

/**
 * The inbox half of a network adapter (platforms/<network>/inbox.ts) and the webhook receivers
 * (docs/inbox.md). Adapters turn what the network says into `InboxEvent`s in Herald's terms; the
 * inbox module (modules/inbox) stores them idempotently, keyed by the network's ids, and never
 * knows which network it talks to. Errors are PlatformError, as everywhere.
 */

/**
 * One message, comment or mention as the network told it, in Herald's terms. The same `externalId`
 * arriving again — webhook retry, a polling overlap, an edit, an unsend — updates the stored
 * message in place.
 */
export interface InboxMessageEvent {
  type: 'message';
  kind: 'dm' | 'comment' | 'mention';
  /** The network's id of this message/comment/mention (Meta `mid`, comment id, tweet id, DM event id). */
  externalId: string;
  /**
   * The conversation it belongs to, unique per connected account and kind: a DM thread id
   * (Meta: the customer's PSID/IGSID; X: dm_conversation_id), the root post's id for comments,
   * the mention's own id for a mention.
   */
  threadExternalId: string;
  /** `out` when the connected account wrote it (echoes, our own comments). */
  direction: 'in' | 'out';
  /** Who wrote it; for `out`, the connected account itself. */
  author: InboxPerson;
  /** For DMs: the customer (the other side), whichever way this message went. */
  counterpart?: InboxPerson;
  text: string;
  /** A review's stars, 1 to 5 (Google Business Profile), kept out of `text`; absent elsewhere. */
  rating?: number | null;
  createdAt: Date;
  attachments: InboxAttachment[];
  /** For comments: the comment it answers; null for a top-level comment. */
  parentExternalId?: string | null;
  /** For comments and mentions: the post they are on. */
  rootPost?: { externalId: string; permalink: string | null; text: string | null } | null;
  deleted?: boolean;
  hidden?: boolean;
  edited?: boolean;
}

export type InboxEvent = InboxMessageEvent;

/**
 * Where polling stopped, per account and feed (since_id, pagination token, last timestamp…).
 * JSON only; the adapter alone reads it.
 */
export type InboxCursor = Record<string, unknown>;

export interface InboxPollResult {
  events: InboxEvent[];
  cursor: InboxCursor;
  /**
   * When the network asks to wait (X: 15 DM reads per 15 minutes per user), the earliest time
   * the next poll may run; absent: the network's configured interval.
   */
  retryAfter?: Date;
  /**
   * For a network that bills reads (`InboxAdapter.billedReads`): what this poll cost, counted in
   * the organization's X budget unit (one post read; a DM event costs two).
   */
  billedReads?: number;
}

export interface InboxPollOptions {
  /**
   * For a network that bills reads: the most reads (in the budget's unit) this poll may cost;
   * the adapter sizes its pages to stay within it and keeps its place for the next poll.
   */
  readBudget?: number;
}

/** What one network's inbox gives for this kind of account (said once per account on the screen). */
export interface InboxCapabilities {
  dm: boolean;
  comments: boolean;
  mentions: boolean;
  /**
   * Its comments are reviews of a place (Google Business Profile): the network has no direct
   * messages at all, so an inbox of reviews brings in everything there is.
   */
  reviews?: boolean;
  /** Facebook/Instagram: one private reply per comment within 7 days. */
  privateReply: boolean;
  like: boolean;
  /** Why `like` is false, when the network took liking away: the sentence a like request gets. */
  likeUnavailable?: string;
  hide: boolean;
  deleteComment: boolean;
  /** `deleteComment` reaches the account's own replies only (Google Business Profile's review replies). */
  deleteOwnRepliesOnly?: boolean;
  block: boolean;
  /**
   * Hours after the customer's last inbound message during which a DM reply is allowed
   * (Messenger/Instagram 24); null: no window.
   */
  dmWindowHours: number | null;
  /** With the HUMAN_AGENT tag, when the app has it (168); null: not available. */
  humanAgentWindowHours: number | null;
  /** The longest reply in a comment thread or to a mention. */
  replyMaxLength: number;
  /** The longest direct message (DM replies and private replies); absent: `replyMaxLength`. */
  dmMaxLength?: number;
  /**
   * The attachment types Herald can send with a reply on this network (DMs and comment replies
   * alike); absent or empty: text only, and a reply with an attachment is refused before
   * anything is stored or sent.
   */
  replyAttachments?: InboxReplyAttachmentType[];
  /** A sentence about what this network does not give, or null. */
  limitation: string | null;
  /** What history an import on connect brings, or null when all of it. */
  historyNote: string | null;
  /** Minimum minutes between two polls of one account (rate limits and billed reads). */
  pollIntervalMinutes: number;
}

/** A file sent with a reply. */
export interface InboxReplyAttachment {
  type: InboxReplyAttachmentType;
  url: string;
}

export interface InboxSendResult {
  externalId: string;
  createdAt: Date;
}

/** The conversation a reply goes to, as stored. */
export interface InboxThreadRef {
  kind: 'dm' | 'comments' | 'mention';
  threadExternalId: string;
  /** The customer (DMs): Meta PSID/IGSID, X user id. */
  participantExternalId: string;
  rootPostExternalId: string | null;
  /**
   * The customer's newest inbound message (DMs): past the standard window, Messenger and
   * Instagram need the HUMAN_AGENT tag.
   */
  lastInboundAt?: Date | null;
}

/**
 * The inbox half of an adapter. Every call goes through the adapter's configured URLs, so it runs
 * against the network or its sandbox alike. A send that may have happened (timeout, dropped
 * connection, 5xx after sending) throws PlatformError `unknown_outcome`; then `findSent` looks it
 * up before anything is sent again.
 */
export interface InboxAdapter {
  /**
   * Whether the network bills every item read (X): polling then needs the organization's X
   * switch on and takes from its monthly read budget (docs/inbox.md#polling-cost-and-the-rate-limit).
   */
  readonly billedReads?: boolean;
  capabilities(account: StoredAccount): InboxCapabilities;
  /** New and changed items since the cursor (null: the first import on connect). */
  poll(
    account: StoredAccount,
    cursor: InboxCursor | null,
    options?: InboxPollOptions,
  ): Promise<InboxPollResult>;
  /** `attachments` only ever holds types the adapter lists in `replyAttachments`. */
  sendDm?(
    account: StoredAccount,
    thread: InboxThreadRef,
    text: string,
    attachments?: InboxReplyAttachment[],
  ): Promise<InboxSendResult>;
  /** Replies in a comment thread: to `commentExternalId`, or to the post itself when null. */
  replyToComment?(
    account: StoredAccount,
    thread: InboxThreadRef,
    commentExternalId: string | null,
    text: string,
    attachments?: InboxReplyAttachment[],
  ): Promise<InboxSendResult>;
  privateReply?(
    account: StoredAccount,
    commentExternalId: string,
    text: string,
    attachments?: InboxReplyAttachment[],
  ): Promise<InboxSendResult>;
  /**
   * After an unknown outcome: our message with this text sent after `since` in the thread, or
   * null when it certainly was not sent; throws when the network cannot tell.
   */
  findSent?(
    account: StoredAccount,
    thread: InboxThreadRef,
    text: string,
    since: Date,
  ): Promise<InboxSendResult | null>;
  /**
   * A DM customer named by the network, for a conversation a webhook brought with ids only; null
   * when the network does not name them. One call per conversation.
   */
  personOf?(account: StoredAccount, personExternalId: string): Promise<InboxPerson | null>;
  like?(account: StoredAccount, externalId: string, liked: boolean): Promise<void>;
  hide?(account: StoredAccount, externalId: string, hidden: boolean): Promise<void>;
  deleteComment?(account: StoredAccount, externalId: string): Promise<void>;
  block?(account: StoredAccount, personExternalId: string): Promise<void>;
  /** Whether the app still receives this account's webhooks; absent on networks without them. */
  checkSubscription?(account: StoredAccount): Promise<boolean>;
  /** Subscribes the app to this account's webhooks (on connect, and after a lapse). */
  subscribe?(account: StoredAccount): Promise<void>;
  /**
   * A network that pushes notices rather than events (Google Business Profile's Pub/Sub
   * notifications): checks a push posted to `/webhooks/{slug}` and names the accounts to read
   * now, whose poll then reads what changed. Absent: the network pushes nothing of the kind.
   */
  readPush?(push: { authorization: string | undefined; body: unknown }): Promise<InboxPushResult>;
}

/**
 * What a pushed notice asks: read these accounts (their ids at the network) now; or nothing, a
 * notice of no concern to the inbox; or the push is refused (its token) or unreadable (its body).
 * Each with its reason for the log.
 */
export type InboxPushResult =
  | { outcome: 'read'; accountExternalIds: string[]; id: string }
  | { outcome: 'ignored'; reason: string }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'malformed'; reason: string };

/** One event of a webhook delivery, addressed to the connected account it is for. */
export interface AddressedInboxEvent {
  platform: PlatformName;
  /** The account's id at the network (Page id, Instagram account id, X user id). */
  accountExternalId: string;
  event: InboxEvent;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/**
 * A handshake's query: each parameter given once (the route refuses a repeated one before a
 * receiver sees it).
 */
export type HandshakeQuery = Readonly<Record<string, string>>;

/**
 * What a handshake answers: the body to send back; `malformed`, a sentence, when a parameter is
 * not of the shape the network sends (answered 400); null when the query is no valid handshake of
 * this network (answered 403).
 */
export type HandshakeAnswer = { contentType: string; body: string } | { malformed: string } | null;

/**
 * One webhook endpoint, `POST|GET /webhooks/{provider}` (Meta's Page/Instagram objects share one
 * app; Threads has its own envelope; X's Activity API). The secret is the network app's secret
 * (or the sandbox's), the verify token Herald's own.
 */
export interface WebhookReceiver {
  /** The `{provider}` of its address: 'meta' (Facebook Pages and Instagram), 'threads', 'x'. */
  provider: string;
  /** The network whose app secret signs deliveries (its runtime's clientSecret). */
  secretFrom: PlatformName;
  /**
   * Whether its handshake echoes Herald's verify token (Meta's `hub.verify_token`); without one
   * configured, such a handshake is refused. X signs its `crc_token` with the app secret instead.
   */
  usesVerifyToken: boolean;
  /**
   * The GET handshake (Meta `hub.challenge` with the verify token; X `crc_token`). A token it
   * echoes or signs must pass `handshakeTokenProblem` (platforms/webhook-handshake.ts).
   */
  handshake(
    query: HandshakeQuery,
    secrets: { appSecret: string; verifyToken: string },
  ): HandshakeAnswer;
  /** Checks the signature over the raw bytes, before any parsing. */
  verify(rawBody: Buffer, headers: WebhookHeaders, appSecret: string): boolean;
  /**
   * Why a signed body, read as JSON, is not a delivery of this receiver's own kind (Meta: the
   * `page` or `instagram` object; Threads: its `{target_id, values}` envelope; X: Activity API
   * events), as a sentence; null when it is one. Checked before the delivery is stored: a
   * signature only says which app secret signed the bytes, and one secret may sign several
   * networks' deliveries (or a handshake's answer).
   */
  deliveryProblem(body: unknown): string | null;
  /** The delivery's events; throws on a body that is not this network's shape. */
  parse(rawBody: Buffer): AddressedInboxEvent[];
}
