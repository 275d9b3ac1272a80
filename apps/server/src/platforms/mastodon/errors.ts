import { type DescribedError, isObj, str } from '../errors.js';

/**
 * Mastodon's error bodies → Herald's error classes (docs/networks.md#mastodon-errors). The API
 * answers `{error, error_description?}`: 422 `Validation failed: …` for a refused status, 401
 * "The access token is invalid" for a revoked token, 429 with `X-RateLimit-Reset` (an ISO date)
 * when the account or the server's limit is reached.
 */
export function describeMastodonError(body: unknown, headers: Headers): DescribedError {
  const error = isObj(body) ? str(body.error) : str(body)?.slice(0, 300);
  const description = isObj(body) ? str(body.error_description) : undefined;
  const message =
    description && error && description !== error
      ? `${error}: ${description}`
      : (description ?? error);
  const reset = headers.get('x-ratelimit-reset');
  const resetAt = reset ? Date.parse(reset) : Number.NaN;
  const retryAfterSeconds = Number.isNaN(resetAt)
    ? undefined
    : Math.max(0, Math.ceil((resetAt - Date.now()) / 1000));
  // Herald's app on the server is unknown there (an app removed by its admins).
  if (error === 'invalid_client' || error === 'unauthorized_client')
    return { message, code: error, kind: 'bad_request' };
  // A token Mastodon refuses never comes back: it does not expire, so it was revoked.
  if (error === 'invalid_grant') return { message, code: error, kind: 'bad_request' };
  return { message, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) };
}
