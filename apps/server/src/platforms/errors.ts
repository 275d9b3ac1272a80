/**
 * The error classes every adapter maps the network's errors to (platform-apis.md §0.3).
 * `message` is a sentence for the user that keeps the network's own words.
 */
export type PlatformErrorKind =
  'reauth' | 'rate_limited' | 'transient' | 'bad_request' | 'unknown_outcome';

export class PlatformError extends Error {
  constructor(
    readonly kind: PlatformErrorKind,
    message: string,
    readonly details: { status?: number; code?: string | number; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/** Seconds from a Retry-After header (seconds or HTTP date), if present. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const n = Number(value);
  if (Number.isFinite(n)) return Math.max(0, n);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.round((date - Date.now()) / 1000));
}

/** A generic mapping from HTTP status, for networks whose error bodies add nothing better. */
export function classifyStatus(status: number): PlatformErrorKind {
  if (status === 401 || status === 403) return 'reauth';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'transient';
  return 'bad_request';
}

/** What a network's error answer says, as its errors.ts reads it. */
export interface DescribedError {
  message?: string;
  kind?: PlatformErrorKind;
  code?: string | number;
}

/** A plain JSON object (not an array), as error envelopes are read. */
export const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A non-blank string, trimmed; undefined otherwise. */
export const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
