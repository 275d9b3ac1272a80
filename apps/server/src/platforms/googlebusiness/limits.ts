import { GBP_MEDIA_CONSTRAINTS } from '@herald/contract';

/** What a local post may hold (the contract's, shared with the composer). */
export { GBP_MEDIA_CONSTRAINTS };

/**
 * Google Business Profile numbers (docs/networks.md#google-business-profile-limits); logic reads
 * them from here.
 */

/** The one scope every Business Profile API needs (sensitive: Google reviews the app for it). */
export const GBP_SCOPE = 'https://www.googleapis.com/auth/business.manage';
export const GBP_SCOPES = [GBP_SCOPE] as const;

/** Google access tokens live an hour when the answer says nothing. */
export const GBP_ACCESS_TOKEN_SECONDS = 3600;

/** Local posts of Herald's at once, across every process (300 requests per minute per API). */
export const GBP_CONCURRENCY = 2;

/** accounts.list and locations.list pages (both take up to 100 per page). */
export const GBP_LIST_PAGE = 100;
/** How many of a location's newest local posts reconcile reads (localPosts.list: at most 100). */
export const GBP_RECONCILE_PAGE = 100;
/** reviews.list: at most 50 per page. */
export const GBP_REVIEWS_PAGE = 50;
/** Pages of reviews one poll reads at most before it keeps its place for the next poll. */
export const GBP_REVIEWS_MAX_PAGES = 10;
/** A reply to a review: at most 4,096 bytes. */
export const GBP_REPLY_MAX_BYTES = 4_096;
/**
 * Reviews are read every 30 minutes: one list call per location and poll stays far inside the
 * 300 requests per minute of the API.
 */
export const GBP_INBOX_POLL_MINUTES = 30;

/** The daily metrics Herald reads (Performance API `DailyMetric`). */
export const GBP_IMPRESSION_METRICS = [
  'BUSINESS_IMPRESSIONS_DESKTOP_MAPS',
  'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
  'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
  'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
] as const;
export const GBP_ACTION_METRICS = [
  'CALL_CLICKS',
  'WEBSITE_CLICKS',
  'BUSINESS_DIRECTION_REQUESTS',
] as const;
export const GBP_DAILY_METRICS = [...GBP_IMPRESSION_METRICS, ...GBP_ACTION_METRICS] as const;
/** Google's figures arrive a few days late: Herald reads the last week and keeps the newest day. */
export const GBP_METRICS_DAYS = 7;

/**
 * Google's prerequisites page, whose "Request access to the API" step is the access request form
 * (reviewed within 14 days): until Google approves it, the project's quota is 0.
 */
export const GBP_ACCESS_FORM = 'https://developers.google.com/my-business/content/prereqs';
