import type { MediaConstraints } from '@herald/contract';

/**
 * What a LinkedIn post may carry (docs/networks.md#linkedin-limits, #composer-limits): the one source of these numbers.
 * The platforms seed (drizzle/0005_seed_platforms.sql) must say the same
 * (platforms/media-constraints.test.ts); operators may change the stored copy later.
 */
export const LINKEDIN_MEDIA_CONSTRAINTS = {
  text: { maxLength: 3_000, counting: 'codepoints', textOnlyAllowed: true },
  maxMediaPerPost: 20,
  image: {
    allowedMimeTypes: ['image/jpeg', 'image/png', 'image/gif'],
    maxFileSize: 10 * 1024 * 1024,
    maxCount: 20,
  },
  video: {
    allowedMimeTypes: ['video/mp4'],
    maxFileSize: 500 * 1024 * 1024,
    minDuration: 3,
    maxDuration: 30 * 60,
    maxCount: 1,
  },
} satisfies MediaConstraints;

/** Most pixels in one image (below 36,152,320). */
export const LINKEDIN_MAX_IMAGE_PIXELS = 36_152_319;

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
