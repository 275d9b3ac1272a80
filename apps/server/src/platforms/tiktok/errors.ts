import {
  type DescribedError,
  isObj,
  PlatformError,
  type PlatformErrorKind,
  str,
} from '../errors.js';

/**
 * TikTok's error bodies → Herald's error classes (docs/networks.md#tiktok-errors). API answers keep one
 * envelope, `{data, error:{code, message, log_id}}`, where success is `code: "ok"` (even an
 * error may come with HTTP 200); the OAuth endpoints answer `{error, error_description, log_id}`.
 */

const API_CODE_KINDS: Record<string, PlatformErrorKind> = {
  access_token_invalid: 'reauth',
  scope_not_authorized: 'reauth',
  scope_permission_missed: 'reauth',
  rate_limit_exceeded: 'rate_limited',
  // Caps that lift with time: wait, do not show as a broken post.
  spam_risk_too_many_posts: 'rate_limited',
  spam_risk_too_many_pending_share: 'rate_limited',
  reached_active_user_cap: 'rate_limited',
  spam_risk_user_banned_from_posting: 'bad_request',
  unaudited_client_can_only_post_to_private_accounts: 'bad_request',
  url_ownership_unverified: 'bad_request',
  privacy_level_option_mismatch: 'bad_request',
  invalid_params: 'bad_request',
  invalid_file_upload: 'bad_request',
  internal_error: 'transient',
};

/**
 * TikTok's words for these codes name the rule but not what to do (docs/networks.md#tiktok-errors):
 * Herald says it in one sentence.
 */
const API_CODE_SENTENCES: Record<string, string> = {
  url_ownership_unverified:
    "TikTok refused to fetch this post's photos because the domain of Herald's media links is not verified for Herald's TikTok app. An operator must verify it in the TikTok developer portal (the back-office page Network setup names it), then publish again.",
  unaudited_client_can_only_post_to_private_accounts:
    "TikTok has not audited Herald's app yet, so it only accepts private posts (visible to you only) from private accounts. Make the TikTok account private and publish again, or ask an operator to have the app audited.",
};

/** A refusal with Herald's sentence first, TikTok's words after; others unchanged. */
export function withTikTokSentence(err: unknown): unknown {
  if (!(err instanceof PlatformError)) return err;
  const code = err.details.code;
  const sentence = typeof code === 'string' ? API_CODE_SENTENCES[code] : undefined;
  if (!sentence) return err;
  const words = err.message.replace(/^TikTok said: /, '');
  return new PlatformError(err.kind, `${sentence} (TikTok said: ${words})`, err.details);
}

/** Which request failed: a refused refresh means the account must reconnect. */
export type TikTokRequest = 'api' | 'code' | 'refresh' | 'revoke';

/** True when the body carries an error, whatever the HTTP status. */
export function isTikTokError(body: unknown): boolean {
  if (!isObj(body)) return false;
  if (typeof body.error === 'string') return true;
  return isObj(body.error) && typeof body.error.code === 'string' && body.error.code !== 'ok';
}

/**
 * `spam_risk_too_many_posts`: "the daily post cap from the API is reached for the current user"
 * (Content Posting API reference). TikTok says neither the cap nor when its day turns, so Herald
 * waits 24 hours: past a rolling window and past any calendar day's end alike, where the next
 * UTC midnight could come before a window in another time zone frees.
 */
export const TIKTOK_DAILY_CAP_WAIT_SECONDS = 24 * 3600;

export function describeTikTokError(request: TikTokRequest) {
  return (body: unknown): DescribedError => {
    if (isObj(body) && isObj(body.error)) {
      const code = str(body.error.code);
      const message = str(body.error.message) ?? code;
      if (code === 'spam_risk_too_many_posts') {
        return {
          sentence: `TikTok's daily limit of posts through apps is reached for this account (TikTok said: ${message ?? code}). Herald will publish it in 24 hours; post from the TikTok app to publish sooner.`,
          kind: 'rate_limited',
          code,
          retryAfterSeconds: TIKTOK_DAILY_CAP_WAIT_SECONDS,
        };
      }
      return { message, kind: code ? API_CODE_KINDS[code] : undefined, code };
    }
    if (isObj(body) && typeof body.error === 'string') {
      const code = body.error;
      const message = str(body.error_description) ?? code;
      // Herald's own client key or secret is wrong: an operator must fix it, not the user.
      if (code === 'invalid_client' || code === 'unauthorized_client')
        return { message, code, kind: 'bad_request' };
      if (
        code === 'server_error' ||
        code === 'temporarily_unavailable' ||
        code === 'internal_error'
      )
        return { message, code, kind: 'transient' };
      if (code === 'rate_limit_exceeded') return { message, code, kind: 'rate_limited' };
      return { message, code, kind: request === 'refresh' ? 'reauth' : 'bad_request' };
    }
    return { message: str(body)?.slice(0, 300) };
  };
}
