import { YOUTUBE_MEDIA_CONSTRAINTS } from '@herald/contract';

/** What a post to YouTube may hold (the contract's, shared with the composer). */
export { YOUTUBE_MEDIA_CONSTRAINTS };

/**
 * YouTube Data API v3 numbers (docs/networks.md#youtube-limits); logic reads them from here.
 */

const SCOPE = 'https://www.googleapis.com/auth';
/** videos.insert and thumbnails.set. */
export const YOUTUBE_UPLOAD_SCOPE = `${SCOPE}/youtube.upload`;
/** Comments (read, write, moderate) and video updates. */
export const YOUTUBE_FORCE_SSL_SCOPE = `${SCOPE}/youtube.force-ssl`;
/** channels.list, videos.list (statistics). */
export const YOUTUBE_READONLY_SCOPE = `${SCOPE}/youtube.readonly`;
export const YOUTUBE_SCOPES = [
  YOUTUBE_UPLOAD_SCOPE,
  YOUTUBE_FORCE_SSL_SCOPE,
  YOUTUBE_READONLY_SCOPE,
] as const;

/** Google access tokens live an hour when the answer says nothing. */
export const YOUTUBE_ACCESS_TOKEN_SECONDS = 3600;

/**
 * The API project's daily quota (determine_quota_cost, 2026): videos.insert has its own bucket
 * of 100 calls a day, 1 per call; every other method shares 10,000 units a day; every request,
 * even a refused one, costs at least 1. Days end at midnight Pacific time.
 */
export const YOUTUBE_QUOTA = {
  unitsPerDay: 10_000,
  uploadsPerDay: 100,
  timeZone: 'America/Los_Angeles',
} as const;

/** What each call Herald makes costs, in units of the shared bucket (uploads: their own bucket). */
export const YOUTUBE_UNIT_COSTS = {
  list: 1,
  insertVideo: 0,
  thumbnailsSet: 50,
  commentInsert: 50,
  commentThreadInsert: 50,
  commentUpdate: 50,
  commentDelete: 50,
  videoUpdate: 50,
  videoDelete: 50,
} as const;
export type YouTubeCall = keyof typeof YOUTUBE_UNIT_COSTS;

/**
 * Units a video published through Herald needs the same day: the thumbnail, and the list calls
 * around the upload. What the composer checks the day can carry.
 */
export const YOUTUBE_UNITS_PER_UPLOAD = YOUTUBE_UNIT_COSTS.thumbnailsSet + 2;

/**
 * Resumable upload chunks: a multiple of 256 KiB (the protocol's rule for all chunks but the
 * last); 8 MiB keeps few round trips without holding much in memory.
 */
export const YOUTUBE_CHUNK_BYTES = 8 * 1024 * 1024;
export const YOUTUBE_CHUNK_UNIT = 256 * 1024;
/** Tries to resume one upload within a check before leaving it for the next one. */
export const YOUTUBE_RESUME_TRIES = 3;

/** Most uploads of Herald's at once, across every process. */
export const YOUTUBE_CONCURRENCY = 2;

/** commentThreads.list and comments.list pages. */
export const YOUTUBE_COMMENTS_PAGE = 50;
/** videos.list takes up to 50 ids at once. */
export const YOUTUBE_STATS_BATCH = 50;
/** A reply or comment: 10,000 characters. */
export const YOUTUBE_COMMENT_MAX = 10_000;
