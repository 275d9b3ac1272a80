import { TIKTOK_MEDIA_CONSTRAINTS } from '@herald/contract';

/**
 * TikTok numbers Herald relies on (docs/networks.md#tiktok). TikTok changed its token lifetimes in
 * Nov 2026 (docs/networks.md#open-questions, question 2): the answers' `expires_in`/`refresh_expires_in` always win over these.
 */

/**
 * Login Kit + Content Posting scopes, as TikTok wants them: a comma list (docs/networks.md#tiktok-oauth). `video.list`
 * lets Herald find a post whose init timed out (docs/networks.md#tiktok-idempotency) and read its counts (docs/networks.md#tiktok-video-list).
 */
export const TIKTOK_SCOPES = [
  'user.info.basic',
  'video.publish',
  'video.upload',
  'video.list',
  // Follower and like totals for analytics (docs/analytics.md#tiktok).
  'user.info.stats',
] as const;

/** Profile fields `user.info.basic` covers (docs/networks.md#tiktok-oauth, #account-identity). */
export const TIKTOK_BASIC_FIELDS = ['open_id', 'union_id', 'avatar_url', 'display_name'] as const;
/** `username` needs `user.info.profile`; without it the handle comes from creator_info. */
export const TIKTOK_PROFILE_SCOPE = 'user.info.profile';
/** creator_info (scope video.publish) names the creator's handle (docs/networks.md#tiktok-publishing). */
export const TIKTOK_CREATOR_INFO_SCOPE = 'video.publish';

/** Fallbacks when an answer omits a lifetime: the shorter, newer figures (2 h / 180 days). */
export const TIKTOK_ACCESS_TOKEN_SECONDS = 7200;
export const TIKTOK_REFRESH_TOKEN_SECONDS = 180 * 86_400;
/** creator_info: 20 requests per minute per token. */
export const TIKTOK_CREATOR_INFO_RATE = { requests: 20, windowSeconds: 60 } as const;

/** Inits (video, inbox, photo) per token: 6 per minute; status fetch 30 per minute (docs/networks.md#tiktok-limits). */
export const TIKTOK_INIT_RATE = { requests: 6, windowSeconds: 60 } as const;
export const TIKTOK_STATUS_RATE = { requests: 30, windowSeconds: 60 } as const;
/**
 * Until TikTok audits the app: every post is forced to SELF_ONLY, at most 5 users may post per
 * 24 h, and their accounts must be private (docs/networks.md#tiktok-limits). The audit lifts these.
 */
export const TIKTOK_UNAUDITED = { usersPer24h: 5, privacyLevel: 'SELF_ONLY' } as const;

/**
 * What a post may carry: the numbers live in the contract (network-constraints.ts), where the
 * composer, the server's checks and this adapter read the same ones (docs/networks.md#composer-limits).
 */
export { TIKTOK_MEDIA_CONSTRAINTS } from '@herald/contract';

/** Captions and photo texts, in UTF-16 units (docs/networks.md#tiktok-limits, #composer-limits). */
export const TIKTOK_TEXT = {
  videoTitleMax: TIKTOK_MEDIA_CONSTRAINTS.text.maxLength,
  photoTitleMax: 90,
  descriptionMax: 4000,
};
export const TIKTOK_PHOTOS = {
  min: 1,
  max: TIKTOK_MEDIA_CONSTRAINTS.image.maxCount,
  mimeTypes: TIKTOK_MEDIA_CONSTRAINTS.image.allowedMimeTypes,
};
export const TIKTOK_VIDEO_MIN_SECONDS = TIKTOK_MEDIA_CONSTRAINTS.video.minDuration;

/** FILE_UPLOAD chunks: 5–64 MB (the last up to 128 MB), at most 1,000 (docs/networks.md#tiktok-publishing). */
export const TIKTOK_CHUNKS = {
  minBytes: 5 * 1024 * 1024,
  maxBytes: 64 * 1024 * 1024,
  /** What Herald sends: small enough to hold one chunk in memory per upload. */
  preferredBytes: 10 * 1024 * 1024,
  maxCount: 1000,
} as const;

/** How videos reach TikTok: uploaded by Herald (no domain to verify) or pulled from its URL. */
export type TikTokVideoSource = 'FILE_UPLOAD' | 'PULL_FROM_URL';

/** How long Herald waits on TikTok (milliseconds); tests pass shorter ones. */
export interface TikTokTiming {
  /** Any read (creator_info, status, video list): past this, the call failed. */
  requestTimeoutMs: number;
  /** An init: past this, the post may or may not exist. */
  initTimeoutMs: number;
  /** One upload chunk. */
  chunkTimeoutMs: number;
  /** After the init: first status look, longest gap between looks, and the whole budget. */
  statusFirstDelayMs: number;
  statusMaxDelayMs: number;
  statusBudgetMs: number;
  videoSource: TikTokVideoSource;
  chunkBytes: number;
}

export const TIKTOK_TIMING: TikTokTiming = {
  requestTimeoutMs: 30_000,
  initTimeoutMs: 30_000,
  chunkTimeoutMs: 120_000,
  // ~10 looks in 30 s stays well under the 30 status fetches per minute.
  statusFirstDelayMs: 1000,
  statusMaxDelayMs: 5000,
  statusBudgetMs: 30_000,
  videoSource: 'FILE_UPLOAD',
  chunkBytes: TIKTOK_CHUNKS.preferredBytes,
};

/**
 * Reconciliation: a post missing from the video list this long after prepare was not published
 * (processing takes minutes at most, docs/networks.md#tiktok-publishing); sooner, TikTok cannot tell yet.
 */
export const TIKTOK_RECONCILE_SETTLED_MS = 30 * 60_000;
