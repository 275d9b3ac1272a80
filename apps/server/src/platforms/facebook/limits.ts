import { FACEBOOK_MEDIA_CONSTRAINTS } from '@herald/contract';

/**
 * What a post may carry: the numbers live in the contract (network-constraints.ts), where the
 * composer, the server's checks and this adapter read the same ones (docs/networks.md#composer-limits).
 */
export { FACEBOOK_MEDIA_CONSTRAINTS } from '@herald/contract';

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
