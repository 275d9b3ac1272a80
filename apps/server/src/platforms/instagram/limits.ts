import type { MediaConstraints } from '@herald/contract';

/**
 * What an Instagram post may carry (docs/networks.md#instagram-limits, #composer-limits): the one source of these numbers.
 * The platforms seed (drizzle/0005_seed_platforms.sql and the updates after it) must say the same
 * (platforms/media-constraints.test.ts); operators may change the stored copy later.
 */
export const INSTAGRAM_MEDIA_CONSTRAINTS = {
  text: { maxLength: 2_200, counting: 'codepoints', textOnlyAllowed: false },
  maxMediaPerPost: 10,
  // Feed images: JPEG only, 4:5 (0.8) to 1.91:1 (https://developers.facebook.com/docs/instagram-platform/content-publishing).
  image: {
    allowedMimeTypes: ['image/jpeg'],
    maxFileSize: 8 * 1024 * 1024,
    minDimensions: { width: 320, height: 320 },
    minAspectRatio: 0.8,
    maxAspectRatio: 1.91,
  },
  video: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime'],
    maxFileSize: 300 * 1024 * 1024,
    minDuration: 3,
    maxDuration: 15 * 60,
  },
  reel: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime'],
    // Sources disagree (300 MB vs 1 GB): validate at the lower one until proven (docs/networks.md#open-questions, question 9).
    maxFileSize: 300 * 1024 * 1024,
    minDuration: 3,
    maxDuration: 15 * 60,
    maxCount: 1,
  },
} satisfies MediaConstraints;

export const INSTAGRAM_CAPTION_LIMITS = { hashtags: 30, mentions: 20 } as const;

/** Fallback only: read `content_publishing_limit.config.quota_total` at runtime (docs/networks.md#open-questions, question 1). */
export const INSTAGRAM_DEFAULT_PUBLISH_QUOTA = 50;

/** Containers per rolling 24 h; each expires 24 h after creation. */
export const INSTAGRAM_CONTAINERS_PER_DAY = 400;

/**
 * Publishing caps (docs/networks.md#instagram-publishing, #instagram-limits). The adapter checks `content_publishing_limit` before every
 * `media_publish` and falls back to `postsPer24h` when Instagram does not say.
 */
export const INSTAGRAM_PUBLISH_CAPS = {
  /** Posts through the API per account per rolling 24 h; a carousel counts as one. */
  postsPer24h: INSTAGRAM_DEFAULT_PUBLISH_QUOTA,
  containersPer24h: INSTAGRAM_CONTAINERS_PER_DAY,
  containerLifetimeHours: 24,
  carouselItems: { min: 2, max: INSTAGRAM_MEDIA_CONSTRAINTS.maxMediaPerPost },
  /**
   * Posts of one account in flight at once: the quota is read before `media_publish`, so two
   * at once could both see the last free slot.
   */
  concurrentPerAccount: 1,
} as const;

/** Pages asked for per `/me/accounts` page of results. */
export const INSTAGRAM_PAGE_LIST_LIMIT = 100;

/** Exchange the user token again when less than this is left of its ~60 days. */
export const INSTAGRAM_REFRESH_BEFORE_EXPIRY_DAYS = 10;
