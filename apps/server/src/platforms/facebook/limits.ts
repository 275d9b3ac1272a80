import type { MediaConstraints } from '@herald/contract';

/**
 * What a Facebook Page post may carry (docs/networks.md#facebook-limits, #composer-limits): the one source of these
 * numbers. The platforms seed (drizzle/0005_seed_platforms.sql) must say the same
 * (platforms/media-constraints.test.ts); operators may change the stored copy later.
 */
export const FACEBOOK_MEDIA_CONSTRAINTS = {
  text: { maxLength: 63_206, counting: 'codepoints', textOnlyAllowed: true },
  maxMediaPerPost: 10,
  image: { allowedMimeTypes: ['image/jpeg', 'image/png'], maxFileSize: 10 * 1024 * 1024 },
  video: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime'],
    maxFileSize: 10 * 1024 * 1024 * 1024,
    maxCount: 1,
  },
  reel: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime'],
    minDuration: 3,
    maxDuration: 90,
    maxCount: 1,
  },
} satisfies MediaConstraints;

/** API-published reels per Page per rolling 24 h, enforced on `video_reels`. */
export const FACEBOOK_REELS_PER_DAY = 30;

/** Publishing caps of a Page (docs/networks.md#facebook-limits). Facebook publishes no post cap beyond its rate limits. */
export const FACEBOOK_PUBLISH_CAPS = {
  /** Reels through the API per Page per rolling 24 h (Herald publishes videos, not reels, yet). */
  reelsPer24h: FACEBOOK_REELS_PER_DAY,
  /** Photos one post attaches (`attached_media`). */
  photosPerPost: FACEBOOK_MEDIA_CONSTRAINTS.maxMediaPerPost,
  /** Posts of one Page in flight at once; more only invites "posting too fast" (368/1390008). */
  concurrentPerAccount: 2,
} as const;

/** Pages asked for per `/me/accounts` page of results. */
export const FACEBOOK_PAGE_LIST_LIMIT = 100;
