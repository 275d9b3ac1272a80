import { LINKEDIN_API_VERSIONS, recommendedApiVersion } from '../../lib/api-versions.js';
import {
  classifyStatus,
  type DescribedError,
  PlatformError,
  type PlatformErrorKind,
} from '../errors.js';
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

/**
 * The sentence for LinkedIn's 426 NONEXISTENT_VERSION: every call fails until the operator
 * chooses a version LinkedIn serves, so it names the setting. LinkedIn writes the version as a
 * day ("Requested version 20251001 is not active" for `LinkedIn-Version: 202510`).
 */
export function sunsetVersionSentence(message: string | undefined, now = new Date()): string {
  const day = /version (\d{6})(\d{2})?\b/.exec(message ?? '');
  const refused = day ? `API version ${day[1]}` : 'the API version Herald sends';
  const next = recommendedApiVersion(LINKEDIN_API_VERSIONS, now);
  const target =
    day?.[1] === next
      ? 'a version LinkedIn serves (https://learn.microsoft.com/en-us/linkedin/marketing/versioning)'
      : next;
  return `LinkedIn no longer serves ${refused}. Set LINKEDIN_API_VERSION to ${target} and restart Herald (LinkedIn said: ${message ?? 'HTTP 426'}).`;
}

/** Reads a LinkedIn error body for `requestJson`: LinkedIn's own words and its code. */
export function describeLinkedInError(body: unknown): DescribedError {
  if (!body || typeof body !== 'object') return {};
  const b = body as LinkedInErrorBody;
  if (typeof b.error === 'string') {
    return {
      message: b.error_description || b.error,
      code: b.error,
      ...(b.error === 'invalid_grant' ? { kind: 'reauth' as const } : {}),
    };
  }
  const code = b.serviceErrorCode ?? b.code;
  if (b.code === 'NONEXISTENT_VERSION' || b.status === 426)
    return { message: b.message, code, sentence: sunsetVersionSentence(b.message) };
  return { message: b.message, code };
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
