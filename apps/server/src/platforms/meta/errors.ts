import { PlatformError, type PlatformErrorKind } from '../errors.js';

/** The Graph error envelope (docs/networks.md#meta-errors), shared by Facebook, Instagram and Threads. */
export interface GraphErrorBody {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    error_user_title?: string;
    error_user_msg?: string;
    fbtrace_id?: string;
    is_transient?: boolean;
  };
}

/** 190 (any subcode) / 102: the token is dead; 10 and 200–299: a permission is missing. */
const isReauthCode = (code: number) =>
  code === 190 || code === 102 || code === 10 || (code >= 200 && code <= 299);
/** App, user or Page throttling; 368 is a temporary policy block (a long wait). */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 341, 368, 613]);
/**
 * Instagram's "daily publishing limit reached" arrives as code 9 or 4 with 2207042; Facebook's
 * "posting too fast" has 1390008.
 */
const RATE_LIMIT_SUBCODES = new Set([2207042, 1390008]);
const TRANSIENT_CODES = new Set([1, 2]);
/**
 * Instagram's "try again" subcodes (codes -1 / -2): server error, media download timeout, create
 * media failed, unknown upload error (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes).
 */
const TRANSIENT_SUBCODES = new Set([2207001, 2207003, 2207032, 2207053]);
/** Instagram's "media not ready for publishing": check the container again, then publish. */
const NOT_READY_SUBCODE = 2207027;

/**
 * Maps a Graph error code (and subcode) to the class the worker acts on; `isTransient` is the
 * error's `is_transient`, Meta's own word that trying again may work.
 */
export function metaErrorKind(
  code: number,
  subcode?: number,
  isTransient?: boolean,
): PlatformErrorKind {
  if (isReauthCode(code)) return 'reauth';
  if (RATE_LIMIT_CODES.has(code) || (subcode !== undefined && RATE_LIMIT_SUBCODES.has(subcode))) {
    return 'rate_limited';
  }
  if (TRANSIENT_CODES.has(code) || subcode === NOT_READY_SUBCODE) return 'transient';
  if (isTransient === true || (subcode !== undefined && TRANSIENT_SUBCODES.has(subcode))) {
    return 'transient';
  }
  return 'bad_request';
}

/** Reads a Graph error body for `requestJson`: Meta's own words and our class. */
export function describeMetaError(body: unknown): {
  message?: string;
  kind?: PlatformErrorKind;
  code?: number;
} {
  const error = (body as GraphErrorBody | null)?.error;
  if (!error || typeof error !== 'object') return {};
  const message = error.error_user_msg || error.message;
  if (typeof error.code !== 'number') return { message };
  return {
    message,
    kind: metaErrorKind(error.code, error.error_subcode, error.is_transient),
    code: error.code,
  };
}

/** True when Meta refused the token itself (already revoked, expired, app removed). */
export const isMetaTokenRejected = (err: unknown) =>
  err instanceof PlatformError && err.kind === 'reauth' && err.details.code === 190;
