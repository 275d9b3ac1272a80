import { type DescribedError, isObj, type PlatformErrorKind, str } from '../errors.js';

/**
 * Pinterest's error answers → Herald's error classes (docs/networks.md#pinterest-errors). API v5
 * answers `{code, message}` (sometimes with `status: "failure"`), the token endpoint too.
 */

/** Codes whose class the HTTP status alone would not say. */
const CODE_KINDS: Record<number, PlatformErrorKind> = {
  // "Authentication failed.": the token is expired, revoked or unknown.
  2: 'reauth',
  // "Authorization failed.": the token lacks a scope the call needs.
  3: 'reauth',
  // Trial access: pins cannot be created in production (an operator must apply for Standard).
  29: 'bad_request',
};

/** Pinterest's words name the rule; for these Herald says what to do in one sentence. */
const CODE_SENTENCES: Record<number, string> = {
  3: "Pinterest refused Herald's access to this account for this action. Reconnect it in Settings so Pinterest asks for every permission Herald needs.",
  29: "Herald's Pinterest app has Trial access, with which Pinterest creates no pins in production. Its operator must apply for Standard access in the Pinterest developer portal.",
};

/** Which request failed: a refused refresh means the account must be reconnected. */
export type PinterestRequest = 'api' | 'code' | 'refresh';

export function describePinterestError(request: PinterestRequest) {
  return (body: unknown): DescribedError => {
    if (!isObj(body)) return { message: str(body)?.slice(0, 300) };
    const code = typeof body.code === 'number' ? body.code : undefined;
    const message = str(body.message) ?? str(body.error_description) ?? str(body.error);
    if (request === 'refresh')
      return {
        sentence: `Pinterest no longer accepts Herald's access to this account (Pinterest said: ${message ?? 'the refresh token was refused'}). Reconnect it in Settings.`,
        kind: 'reauth',
        code,
      };
    if (request === 'code' && code === undefined)
      return { message, kind: 'bad_request', code: str(body.error) };
    const sentence = code !== undefined ? CODE_SENTENCES[code] : undefined;
    return {
      ...(sentence ? { sentence: `${sentence} (Pinterest said: ${message})` } : { message }),
      kind: code !== undefined ? CODE_KINDS[code] : undefined,
      code,
    };
  };
}
