import type { MediaConstraints } from '@herald/contract';

/** Composer rules for a Facebook Page post (platform-apis.md §3.5, §8). Check a live Page first. */
export const FACEBOOK_MEDIA_CONSTRAINTS: MediaConstraints = {
  text: { maxLength: 63_206, counting: 'codepoints', textOnlyAllowed: true },
  image: {
    allowedMimeTypes: ['image/jpeg', 'image/png'],
    maxFileSize: 4 * 1024 * 1024,
    maxCount: 10,
  },
  reel: {
    allowedMimeTypes: ['video/mp4'],
    minDuration: 3,
    maxDuration: 90,
    minDimensions: { width: 540, height: 960 },
    maxCount: 1,
  },
  video: { allowedMimeTypes: ['video/mp4', 'video/quicktime'], maxCount: 1 },
  maxMediaPerPost: 10,
};

/** API-published reels per Page per rolling 24 h, enforced on `video_reels`. */
export const FACEBOOK_REELS_PER_DAY = 30;

/** Publishing caps of a Page (§3.5). Facebook publishes no post cap beyond its rate limits. */
export const FACEBOOK_PUBLISH_CAPS = {
  /** Reels through the API per Page per rolling 24 h (Herald publishes videos, not reels, yet). */
  reelsPer24h: FACEBOOK_REELS_PER_DAY,
  /** Photos one post attaches (`attached_media`). */
  photosPerPost: 10,
  /** Posts of one Page in flight at once; more only invites "posting too fast" (368/1390008). */
  concurrentPerAccount: 2,
} as const;

/** Pages asked for per `/me/accounts` page of results. */
export const FACEBOOK_PAGE_LIST_LIMIT = 100;
