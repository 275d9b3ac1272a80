import { THREADS_MEDIA_CONSTRAINTS } from '@herald/contract';

/**
 * Threads numbers Herald relies on (docs/networks.md#threads). Kept here because Meta changes them;
 * re-check against a live account before launch.
 */

/**
 * Everything Herald does: read the profile, publish, read and manage replies (docs/networks.md#threads-oauth), and delete
 * its own replies (`threads_delete`, for DELETE /{media}; accounts connected before it was asked
 * for must reconnect to delete).
 */
export const THREADS_SCOPES = [
  'threads_basic',
  'threads_content_publish',
  'threads_manage_replies',
  'threads_read_replies',
  'threads_delete',
  // Analytics (docs/analytics.md#threads).
  'threads_manage_insights',
  // The inbox's mentions (docs/inbox.md#threads).
  'threads_manage_mentions',
] as const;

/** Graph API version in every API path. */
export const THREADS_GRAPH_VERSION = 'v1.0';

/** Fields read for the connected account (docs/networks.md#threads-oauth, #account-identity). */
export const THREADS_PROFILE_FIELDS = [
  'id',
  'username',
  'name',
  'threads_profile_picture_url',
  'threads_biography',
] as const;

/** The code exchange gives a 1 h token… */
export const THREADS_SHORT_TOKEN_SECONDS = 3600;
/** …traded at once for a 60-day one (`th_exchange_token`); Threads answers `expires_in`. */
export const THREADS_LONG_TOKEN_SECONDS = 5_183_944;
/** A long-lived token can be refreshed once it is 24 h old and until it expires. */
export const THREADS_REFRESH_MIN_AGE_SECONDS = 86_400;

/** 250 API-published posts and 1,000 replies per rolling 24 h; a carousel counts once (docs/networks.md#threads-limits). */
export const THREADS_POST_CAP = { posts: 250, windowSeconds: 86_400 } as const;
export const THREADS_REPLY_CAP = { replies: 1000, windowSeconds: 86_400 } as const;
/**
 * When the quota is used up Threads does not say when a slot frees; look again in an hour
 * (the oldest post leaves the rolling window some time within the next 24 h).
 */
export const THREADS_QUOTA_RETRY_SECONDS = 3600;

/**
 * What a post may carry: the numbers live in the contract (network-constraints.ts), where the
 * composer, the server's checks and this adapter read the same ones (docs/networks.md#composer-limits).
 */
export { THREADS_MEDIA_CONSTRAINTS } from '@herald/contract';

export const THREADS_TEXT_MAX = THREADS_MEDIA_CONSTRAINTS.text.maxLength;
export const THREADS_CAROUSEL_ITEMS = {
  min: 2,
  max: THREADS_MEDIA_CONSTRAINTS.maxMediaPerPost,
} as const;

/** How long Herald waits on Threads (milliseconds); tests pass shorter ones. */
export interface ThreadsTiming {
  /** Any call: past this, the call failed (transient). */
  requestTimeoutMs: number;
  /** threads_publish: past this, the post may or may not exist (unknown outcome). */
  publishTimeoutMs: number;
  /**
   * A container still processing is looked at again this long after it was created (Threads
   * advises waiting about 30 s before publishing)…
   */
  firstLookMs: number;
  /** …then at this interval (Threads: once a minute)… */
  pollMs: number;
  /** …and no longer than this after it was created (Threads: no more than 5 minutes). */
  giveUpMs: number;
  /** A reply's container: how long to wait for it to be ready before publishing it. */
  replyReadyMs: number;
}

export const THREADS_TIMING: ThreadsTiming = {
  requestTimeoutMs: 30_000,
  publishTimeoutMs: 30_000,
  // https://developers.facebook.com/docs/threads/posts ("wait on average 30 seconds before
  // publishing") and /docs/threads/troubleshooting ("querying a container's status once per
  // minute, for no more than 5 minutes"). Text and images are usually FINISHED at the first look,
  // made at once after prepare; only a container still IN_PROGRESS follows this schedule.
  firstLookMs: 30_000,
  pollMs: 60_000,
  giveUpMs: 5 * 60_000,
  replyReadyMs: 10_000,
};

/** Recent posts reconciliation reads when looking for a post whose publish timed out. */
export const THREADS_RECONCILE_LOOKBACK = 50;
/** Fields read for comments (docs/networks.md#threads-comments, #comment-mapping). */
export const THREADS_REPLY_FIELDS = [
  'id',
  'text',
  'username',
  'permalink',
  'timestamp',
  'has_replies',
  'replied_to',
  'is_reply_owned_by_me',
  'hide_status',
  'profile_picture_url',
] as const;
