import { type DescribedError, isObj, type PlatformErrorKind, str } from '../errors.js';
import { GBP_ACCESS_FORM } from './limits.js';

/**
 * Google's error answers → Herald's error classes (docs/networks.md#google-business-profile-errors).
 * The Business Profile APIs answer `{error: {code, message, status, details?}}` (google.rpc.Status);
 * the OAuth endpoints answer `{error, error_description}`.
 */

const STATUS_KINDS: Record<string, PlatformErrorKind> = {
  UNAUTHENTICATED: 'reauth',
  RESOURCE_EXHAUSTED: 'rate_limited',
  INVALID_ARGUMENT: 'bad_request',
  FAILED_PRECONDITION: 'bad_request',
  NOT_FOUND: 'bad_request',
  ALREADY_EXISTS: 'bad_request',
  OUT_OF_RANGE: 'bad_request',
  UNIMPLEMENTED: 'bad_request',
  INTERNAL: 'transient',
  UNAVAILABLE: 'transient',
  DEADLINE_EXCEEDED: 'transient',
};

/** `details[].reason` of an ErrorInfo (SERVICE_DISABLED, ACCESS_TOKEN_SCOPE_INSUFFICIENT…). */
function reasonOf(error: Record<string, unknown>): string | undefined {
  const details = Array.isArray(error.details) ? (error.details as unknown[]) : [];
  for (const d of details) if (isObj(d) && str(d.reason)) return str(d.reason);
  return undefined;
}

/**
 * What Google says is wrong, field by field: the v4 API's `ValidationError.errorDetails` and the
 * v1 APIs' `BadRequest.fieldViolations`, joined after its message.
 */
function violationsOf(error: Record<string, unknown>): string {
  const details = Array.isArray(error.details) ? (error.details as unknown[]) : [];
  const parts: string[] = [];
  for (const d of details) {
    if (!isObj(d)) continue;
    for (const e of Array.isArray(d.errorDetails) ? (d.errorDetails as unknown[]) : [])
      if (isObj(e) && str(e.message))
        parts.push(str(e.field) ? `${str(e.field)}: ${str(e.message)}` : str(e.message)!);
    for (const v of Array.isArray(d.fieldViolations) ? (d.fieldViolations as unknown[]) : [])
      if (isObj(v) && str(v.description))
        parts.push(str(v.field) ? `${str(v.field)}: ${str(v.description)}` : str(v.description)!);
  }
  return parts.join('; ');
}

/** Which request failed: a refused refresh means the location must be reconnected. */
export type GbpRequest = 'api' | 'code' | 'refresh' | 'revoke';

export function describeGbpError(request: GbpRequest) {
  return (body: unknown): DescribedError => {
    if (isObj(body) && isObj(body.error)) {
      const status = str(body.error.status);
      const violations = violationsOf(body.error);
      const said = str(body.error.message) ?? status;
      const message = violations ? `${said} (${violations})` : said;
      const reason = reasonOf(body.error);
      if (status === 'RESOURCE_EXHAUSTED')
        return {
          // A project Google has not approved has a quota of 0: every call ends here.
          sentence: `Google refused the call for its quota (Google said: ${message}). If every call is refused so, Herald's Google Cloud project is not approved for the Business Profile APIs yet: apply at ${GBP_ACCESS_FORM}.`,
          kind: 'rate_limited',
          code: status,
          retryAfterSeconds: 60,
        };
      if (reason === 'SERVICE_DISABLED')
        return {
          sentence: `An operator must enable this Business Profile API in Herald's Google Cloud project (Google said: ${message}).`,
          kind: 'bad_request',
          code: reason,
        };
      if (reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT')
        return { message, kind: 'reauth', code: reason };
      // PERMISSION_DENIED without a reason: the location is no longer managed by this Google
      // account, or it is not verified; reconnecting does not help, so it is said as it is.
      return {
        message,
        kind: status ? STATUS_KINDS[status] : undefined,
        code: reason ?? status,
      };
    }
    if (isObj(body) && typeof body.error === 'string') {
      const code = body.error;
      const message = str(body.error_description) ?? code;
      if (code === 'invalid_client' || code === 'unauthorized_client')
        return { message, code, kind: 'bad_request' };
      if (code === 'invalid_grant' && request === 'refresh')
        return {
          sentence: `Google no longer accepts Herald's access to this Business Profile (Google said: ${message}). Reconnect it in Settings.`,
          code,
          kind: 'reauth',
        };
      return { message, code, kind: request === 'refresh' ? 'reauth' : 'bad_request' };
    }
    return { message: str(body)?.slice(0, 300) };
  };
}
