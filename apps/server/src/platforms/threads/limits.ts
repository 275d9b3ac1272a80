/**
 * Threads numbers Herald relies on (platform-apis.md §4). Kept here because Meta changes them;
 * re-check against a live account before launch.
 */

/** Everything Herald does: read the profile, publish, read and manage replies (§4.1). */
export const THREADS_SCOPES = [
  'threads_basic',
  'threads_content_publish',
  'threads_manage_replies',
  'threads_read_replies',
] as const;

/** Graph API version in every API path. */
export const THREADS_GRAPH_VERSION = 'v1.0';

/** Fields read for the connected account (§4.1, §10.1). */
export const THREADS_PROFILE_FIELDS = [
  'id',
  'username',
  'name',
  'threads_profile_picture_url',
  'threads_biography',
] as const;

/** The code exchange gives a 1 h token… */
export const THREADS_SHORT_TOKEN_SECONDS = 3600;
/** …traded at once for a 60-day one (`th_exchange_token`); Threads answers `expires_in`. */
export const THREADS_LONG_TOKEN_SECONDS = 5_183_944;
/** A long-lived token can be refreshed once it is 24 h old and until it expires. */
export const THREADS_REFRESH_MIN_AGE_SECONDS = 86_400;
