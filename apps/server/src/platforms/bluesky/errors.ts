import { type DescribedError, isObj, str } from '../errors.js';

/**
 * XRPC error bodies → Herald's error classes (docs/networks.md#bluesky-errors). Every AT Protocol
 * service answers `{error, message}`: `ExpiredToken` / `InvalidToken` for a session that no longer
 * works (the access token is renewed, the refresh token means reconnecting),
 * `AuthenticationRequired` for a wrong app password, `RateLimitExceeded` (429, with
 * `ratelimit-reset` in epoch seconds), `InvalidRequest` for a record the lexicon refuses.
 */
export function describeBlueskyError(body: unknown, headers: Headers): DescribedError {
  const error = isObj(body) ? str(body.error) : undefined;
  const detail = isObj(body) ? str(body.message) : str(body)?.slice(0, 300);
  const message = error && detail && detail !== error ? `${error}: ${detail}` : (detail ?? error);
  const reset = Number(headers.get('ratelimit-reset'));
  const retryAfterSeconds =
    Number.isFinite(reset) && reset > 0
      ? Math.max(0, Math.ceil(reset - Date.now() / 1000))
      : undefined;
  const more = retryAfterSeconds !== undefined ? { retryAfterSeconds } : {};
  // Chat refuses an app password made without direct-message access in these words.
  if (detail === 'Bad token scope' || detail === 'Bad token method')
    return {
      message,
      code: error ?? detail,
      kind: 'bad_request',
      sentence:
        'Bluesky refused direct messages to this app password: it was created without access to direct messages. Create an app password that allows them and reconnect the account.',
    };
  switch (error) {
    case 'ExpiredToken':
    case 'InvalidToken':
    case 'AccountTakedown':
    case 'AccountDeactivated':
      return { message, code: error, kind: 'reauth' };
    case 'AuthenticationRequired':
      return {
        message,
        code: error,
        kind: 'reauth',
        sentence: `Bluesky refused the sign-in (${detail ?? error}). Check the handle and the app password, then connect again.`,
      };
    case 'AuthFactorTokenRequired':
      return {
        message,
        code: error,
        kind: 'bad_request',
        sentence:
          'Bluesky asks for a code from your email to sign in with your main password. Create an app password in Bluesky (Settings → Privacy and security → App passwords) and use it instead.',
      };
    case 'RateLimitExceeded':
      return { message, code: error, kind: 'rate_limited', ...more };
    case 'InvalidRequest':
    case 'InvalidSwap':
    case 'BlobTooLarge':
      return { message, code: error, kind: 'bad_request' };
    case 'UpstreamFailure':
    case 'InternalServerError':
      return { message, code: error, kind: 'transient' };
  }
  return { message, ...(error ? { code: error } : {}), ...more };
}
