import { type DescribedError, isObj, type PlatformErrorKind, str } from '../errors.js';

/**
 * X's error bodies → Herald's error classes (docs/networks.md#x-errors). API calls answer RFC 7807
 * problems `{title, detail, type, status}` (or, from older endpoints, `errors[{code, message}]`);
 * the token endpoint answers OAuth's `{error, error_description}`.
 */

/** Last segment of a problem `type` URI (…/2/problems/usage-capped → usage-capped). */
const PROBLEM_KINDS: Record<string, PlatformErrorKind> = {
  'usage-capped': 'rate_limited',
  'rate-limit-exceeded': 'rate_limited',
  // The app is not enrolled or lacks access: reconnecting the account would not help.
  'client-forbidden': 'bad_request',
  'not-authorized-for-resource': 'bad_request',
  'invalid-request': 'bad_request',
  'resource-not-found': 'bad_request',
  'duplicate-rules': 'bad_request',
};

/** Codes of the older `errors[{code, message}]` bodies. */
const LEGACY_CODE_KINDS: Record<number, PlatformErrorKind> = {
  32: 'reauth', // Could not authenticate you.
  89: 'reauth', // Invalid or expired token.
  88: 'rate_limited', // Rate limit exceeded.
  185: 'rate_limited', // User is over daily status update limit.
  186: 'bad_request', // Tweet needs to be a bit shorter.
  187: 'bad_request', // Status is a duplicate.
  130: 'transient', // Over capacity.
  131: 'transient', // Internal error.
};

/** Describes an error answer of the v2 API; unknown kinds fall back to the HTTP status. */
export function describeXApiError(body: unknown): DescribedError {
  if (!isObj(body)) return { message: str(body)?.slice(0, 300) };
  const errors = Array.isArray(body.errors) ? body.errors.filter(isObj) : [];
  const first = errors[0];
  // A partial answer (200 with data) or an older body carries the problem inside errors[].
  const problem = !str(body.title) && !str(body.detail) && first ? first : body;
  const title = str(problem.title);
  const detail = str(problem.detail) ?? str(problem.message);
  const summary = title && detail && title !== detail ? `${title}: ${detail}` : (detail ?? title);
  // An invalid request names the actual problem in errors[] beside its generic title.
  const specifics =
    problem === body
      ? errors
          .map((e) => str(e.message))
          .filter(Boolean)
          .join(' ')
      : '';
  const message =
    specifics && summary ? `${summary} ${specifics}` : (summary ?? (specifics || undefined));
  const slug = str(problem.type)?.split('/').pop();
  const status = typeof problem.status === 'number' ? problem.status : undefined;

  if (typeof problem.code === 'number' && LEGACY_CODE_KINDS[problem.code])
    return { message, kind: LEGACY_CODE_KINDS[problem.code], code: problem.code };
  if (slug && PROBLEM_KINDS[slug]) return { message, kind: PROBLEM_KINDS[slug], code: slug };
  if (detail && /duplicate content/i.test(detail))
    return { message, kind: 'bad_request', code: slug ?? status };
  // A 403 from X is a refused action (policy, not summoned, not enrolled), not a dead token;
  // dead tokens answer 401, which the status mapping already sends to reauth.
  if (status === 403) return { message, kind: 'bad_request', code: slug ?? status };
  return { message, code: slug ?? status };
}

/** Which token-endpoint request failed: a refused refresh means the account must reconnect. */
export type XTokenRequest = 'code' | 'refresh' | 'revoke';

export function describeXTokenError(request: XTokenRequest) {
  return (body: unknown): DescribedError => {
    if (!isObj(body) || typeof body.error !== 'string') return describeXApiError(body);
    const code = body.error;
    const message = str(body.error_description) ?? code;
    // Herald's own credentials are wrong: an operator must fix them, not the user.
    if (code === 'invalid_client' || code === 'unauthorized_client')
      return { message, code, kind: 'bad_request' };
    if (code === 'server_error' || code === 'temporarily_unavailable')
      return { message, code, kind: 'transient' };
    return { message, code, kind: request === 'refresh' ? 'reauth' : 'bad_request' };
  };
}
