import { LINKEDIN_MEDIA_CONSTRAINTS } from '@herald/contract';

/**
 * What a post may carry: the numbers live in the contract (network-constraints.ts), where the
 * composer, the server's checks and this adapter read the same ones (docs/networks.md#composer-limits).
 */
export { LINKEDIN_MEDIA_CONSTRAINTS, LINKEDIN_MAX_IMAGE_PIXELS } from '@herald/contract';

/** Access tokens live 60 days; refresh tokens (partners only) 365 days from the first grant. */
export const LINKEDIN_ACCESS_TOKEN_DAYS = 60;
export const LINKEDIN_REFRESH_TOKEN_DAYS = 365;

/**
 * Organization roles that may post as the Page (`w_organization_social`): Herald lists Pages
 * where the member holds one of these (docs/networks.md#linkedin-oauth).
 */
export const LINKEDIN_PAGE_ROLES = ['ADMINISTRATOR', 'CONTENT_ADMINISTRATOR'] as const;

/** Organization ACLs asked for per page of results. */
export const LINKEDIN_ACL_PAGE_SIZE = 100;

/**
 * Publishing pace (docs/networks.md#linkedin-limits). LinkedIn's daily app and member limits are not published (see the
 * app's Analytics tab); about 150 posts per member per day is the figure third parties quote.
 * Windows reset at midnight UTC. `concurrency` is per worker process; the engine's caps.ts reads both numbers.
 */
export const LINKEDIN_PUBLISH_LIMITS = {
  postsPerDay: 150,
  concurrency: 4,
} as const;

/** A post has 1 video, or 1 image, or 2–20 images (MultiImage). */
export const LINKEDIN_MAX_IMAGES = LINKEDIN_MEDIA_CONSTRAINTS.image.maxCount;

/**
 * How long `POST /rest/posts` may take before Herald stops waiting and reports an unknown
 * outcome (then reconciles instead of posting again).
 */
export const LINKEDIN_FINALIZE_TIMEOUT_MS = 20_000;

/** LinkedIn gives no hint when to poll asset status again: images are quick, videos slow. */
export const LINKEDIN_POLL_MS = { image: 1_000, video: 5_000 } as const;

/** Recent posts read when reconciling an unknown outcome. */
export const LINKEDIN_RECONCILE_LOOKBACK = 10;

/** Most comments asked for per page. */
export const LINKEDIN_COMMENTS_PAGE_MAX = 100;
