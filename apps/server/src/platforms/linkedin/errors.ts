import { classifyStatus, PlatformError, type PlatformErrorKind } from '../errors.js';
import { requestJson } from '../oauth.js';
import type { PlatformHttp } from '../types.js';

/** LinkedIn error bodies: REST `{message, serviceErrorCode, status, code?}` or OAuth `{error, error_description}`. */
interface LinkedInErrorBody {
  message?: string;
  serviceErrorCode?: number;
  status?: number;
  code?: string;
  error?: string;
  error_description?: string;
}

/**
 * 401 (expired, revoked, scope changed) → reauth; 429 → rate_limited (daily windows);
 * 5xx → transient; 403 → reauth (a scope or role is missing; on a read: see `requestLinkedIn`); 422 validation, 426 sunset
 * `LinkedIn-Version` and the rest → bad_request (docs/networks.md#linkedin-errors). `invalid_grant` from the token endpoint
 * means the grant is gone → reauth.
 */
export function linkedInErrorKind(status: number, body: unknown): PlatformErrorKind {
  const error = (body as LinkedInErrorBody | null)?.error;
  if (error === 'invalid_grant') return 'reauth';
  return classifyStatus(status);
}

/** Reads a LinkedIn error body for `requestJson`: LinkedIn's own words and its code. */
export function describeLinkedInError(body: unknown): {
  message?: string;
  kind?: PlatformErrorKind;
  code?: string | number;
} {
  if (!body || typeof body !== 'object') return {};
  const b = body as LinkedInErrorBody;
  if (typeof b.error === 'string') {
    return {
      message: b.error_description || b.error,
      code: b.error,
      ...(b.error === 'invalid_grant' ? { kind: 'reauth' as const } : {}),
    };
  }
  return { message: b.message, code: b.serviceErrorCode ?? b.code };
}

/**
 * requestJson for LinkedIn. A 403 on a read (GET) says this app or this member's role may not
 * read that resource (a member token on the Images API, comments without r_member_social…):
 * reconnecting would change nothing, so it is `bad_request`, never `reauth`.
 */
export async function requestLinkedIn<T>(
  http: PlatformHttp,
  url: string,
  init: RequestInit,
): Promise<T> {
  try {
    return await requestJson<T>(http, 'LinkedIn', url, init, describeLinkedInError);
  } catch (err) {
    const isRead = (init.method ?? 'GET').toUpperCase() === 'GET';
    if (isRead && err instanceof PlatformError && err.details.status === 403)
      throw new PlatformError('bad_request', err.message, err.details);
    throw err;
  }
}
