import { type DescribedError, isObj, type PlatformErrorKind, str } from '../errors.js';
import { YOUTUBE_QUOTA } from './limits.js';

/**
 * Google's error answers → Herald's error classes (docs/networks.md#youtube-errors). The API
 * answers `{error: {code, message, errors: [{reason, domain, message}]}}`; the OAuth endpoints
 * answer `{error, error_description}`.
 */

const REASON_KINDS: Record<string, PlatformErrorKind> = {
  quotaExceeded: 'rate_limited',
  rateLimitExceeded: 'rate_limited',
  userRateLimitExceeded: 'rate_limited',
  uploadLimitExceeded: 'rate_limited',
  authError: 'reauth',
  insufficientPermissions: 'reauth',
  youtubeSignupRequired: 'bad_request',
  forbidden: 'bad_request',
  invalidTitle: 'bad_request',
  invalidDescription: 'bad_request',
  invalidTags: 'bad_request',
  invalidCategoryId: 'bad_request',
  invalidPublishAt: 'bad_request',
  invalidVideoMetadata: 'bad_request',
  mediaBodyRequired: 'bad_request',
  badContent: 'bad_request',
  invalidImage: 'bad_request',
  failedPrecondition: 'bad_request',
  videoNotFound: 'bad_request',
  commentNotFound: 'bad_request',
  commentsDisabled: 'bad_request',
  imageFormatUnsupported: 'bad_request',
  imageTooTall: 'bad_request',
  imageTooWide: 'bad_request',
  mediaBodyTooLarge: 'bad_request',
  backendError: 'transient',
  internalError: 'transient',
};

/** Google's words name the rule; for these Herald says what to do in one sentence. */
const REASON_SENTENCES: Record<string, string> = {
  youtubeSignupRequired:
    'This Google account has no YouTube channel yet. Create the channel on youtube.com, then reconnect the account in Herald.',
  uploadLimitExceeded:
    'YouTube has reached this channel’s own limit of uploads for now. Herald will try again in 24 hours; upload from YouTube Studio to publish sooner.',
  commentsDisabled: 'Comments are turned off on this YouTube video.',
};

/** Seconds until the next midnight in Pacific time, when the quota is renewed. */
export function secondsToPacificMidnight(now = new Date()): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: YOUTUBE_QUOTA.timeZone,
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(now);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const elapsed = n('hour') * 3600 + n('minute') * 60 + n('second');
  return Math.max(60, 24 * 3600 - elapsed);
}

/** The first reason of a Google API error body, if any. */
export function googleReason(body: unknown): string | undefined {
  if (!isObj(body) || !isObj(body.error)) return undefined;
  const errors = Array.isArray(body.error.errors) ? body.error.errors : [];
  const first: unknown = errors[0];
  return isObj(first) ? str(first.reason) : undefined;
}

/** Which request failed: a refused refresh means the channel must be reconnected. */
export type YouTubeRequest = 'api' | 'code' | 'refresh' | 'revoke';

export function describeYouTubeError(request: YouTubeRequest) {
  return (body: unknown): DescribedError => {
    if (isObj(body) && isObj(body.error)) {
      const reason = googleReason(body);
      const message = str(body.error.message) ?? reason;
      if (reason === 'quotaExceeded')
        return {
          sentence: `The YouTube API project has used its quota for today (YouTube said: ${message}). Herald will try again after midnight Pacific time.`,
          kind: 'rate_limited',
          code: reason,
          retryAfterSeconds: secondsToPacificMidnight(),
        };
      const sentence = reason ? REASON_SENTENCES[reason] : undefined;
      return {
        ...(sentence ? { sentence: `${sentence} (YouTube said: ${message})` } : { message }),
        kind: reason ? REASON_KINDS[reason] : undefined,
        code: reason,
        ...(reason === 'uploadLimitExceeded' ? { retryAfterSeconds: 24 * 3600 } : {}),
      };
    }
    if (isObj(body) && typeof body.error === 'string') {
      const code = body.error;
      const message = str(body.error_description) ?? code;
      // Herald's own client id or secret is wrong: an operator must fix it, not the user.
      if (code === 'invalid_client' || code === 'unauthorized_client')
        return { message, code, kind: 'bad_request' };
      // `invalid_grant` on a refresh: revoked, expired (7 days in testing mode) or changed password.
      if (code === 'invalid_grant' && request === 'refresh')
        return {
          sentence: `Google no longer accepts Herald's access to this YouTube channel (Google said: ${message}). Reconnect it in Settings.`,
          code,
          kind: 'reauth',
        };
      return { message, code, kind: request === 'refresh' ? 'reauth' : 'bad_request' };
    }
    return { message: str(body)?.slice(0, 300) };
  };
}
