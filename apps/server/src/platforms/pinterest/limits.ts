import { PINTEREST_MEDIA_CONSTRAINTS } from '@herald/contract';

/** What a pin may hold (the contract's, shared with the composer). */
export { PINTEREST_MEDIA_CONSTRAINTS };

/**
 * Pinterest API v5 numbers (docs/networks.md#pinterest-limits); logic reads them from here.
 */

/**
 * What creating pins on the account's boards needs (`POST /v5/pins`, `POST /v5/boards`,
 * `POST /v5/media`), reading the account (`GET /v5/user_account`) and its pins' analytics.
 */
export const PINTEREST_SCOPES = [
  'boards:read',
  'boards:write',
  'pins:read',
  'pins:write',
  'user_accounts:read',
] as const;

/**
 * When the token answer says nothing: access tokens last 30 days and continuous refresh tokens 60
 * (each refresh answers a new one, and the old one stops working).
 */
export const PINTEREST_ACCESS_TOKEN_SECONDS = 30 * 24 * 3600;
export const PINTEREST_REFRESH_TOKEN_SECONDS = 60 * 24 * 3600;

/** Video processing (`GET /v5/media/{id}`): polled this often, given up after this long. */
export const PINTEREST_MEDIA_TIMING = { pollMs: 5_000, giveUpMs: 30 * 60_000 } as const;

/**
 * How many of the board's newest pins reconcile reads (`GET /v5/boards/{id}/pins`), and how far
 * Pinterest's clock may be from Herald's when it compares times.
 */
export const PINTEREST_RECONCILE_WINDOW = 50;
export const PINTEREST_CLOCK_DRIFT_MS = 5 * 60_000;

/** `GET /v5/boards`: at most 250 a page; the composer reads this many pages at most. */
export const PINTEREST_BOARDS_PAGE = 250;
export const PINTEREST_BOARDS_MAX_PAGES = 4;

/**
 * `GET /v5/pins/{id}/analytics`: the range reaches at most 90 days back, ending today.
 */
export const PINTEREST_ANALYTICS_DAYS = 90;
export const PINTEREST_METRIC_TYPES = [
  'IMPRESSION',
  'SAVE',
  'PIN_CLICK',
  'OUTBOUND_CLICK',
  'VIDEO_MRC_VIEW',
] as const;

/** Most publications to Pinterest at once, across every process. */
export const PINTEREST_CONCURRENCY = 2;

/** Trial access: 1,000 requests a day for the app (Standard: 100 per second per user). */
export const PINTEREST_TRIAL_REQUESTS_PER_DAY = 1_000;
