import { INSTAGRAM_MEDIA_CONSTRAINTS } from '@herald/contract';

/**
 * What a post may carry: the numbers live in the contract (network-constraints.ts), where the
 * composer, the server's checks and this adapter read the same ones (docs/networks.md#composer-limits).
 */
export { INSTAGRAM_MEDIA_CONSTRAINTS, INSTAGRAM_CAPTION_LIMITS } from '@herald/contract';

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
