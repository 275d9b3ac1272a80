/**
 * X numbers Herald relies on (platform-apis.md §1). Kept here, not in code paths, because X
 * changes them; re-check against a live account before launch.
 */

/** Publishing plus `offline.access`, without which X issues no refresh token (§1.1). */
export const X_SCOPES = [
  'tweet.read',
  'tweet.write',
  'users.read',
  'media.write',
  'offline.access',
] as const;

/** Fields read for the connected account (§1.1, §10.1). */
export const X_USER_FIELDS = [
  'id',
  'name',
  'username',
  'profile_image_url',
  'verified',
  'verified_type',
  'public_metrics',
] as const;

/** Access tokens live 2 h; X answers `expires_in` and that wins. */
export const X_ACCESS_TOKEN_SECONDS = 7200;
/** Authorization codes must be exchanged within 30 s. */
export const X_AUTH_CODE_SECONDS = 30;
/** `state` may be at most 500 characters. */
export const X_STATE_MAX_LENGTH = 500;
/** `GET /2/users/me`: 75 requests per 15 min per user. */
export const X_USERS_ME_RATE = { requests: 75, windowSeconds: 900 } as const;
