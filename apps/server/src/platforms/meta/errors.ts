import { type DescribedError, isObj, PlatformError, type PlatformErrorKind } from '../errors.js';

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
/**
 * App, user or Page throttling; 80001 (Pages) and 80002 (Instagram) are the Business Use Case
 * limits, whose wait comes in the `X-Business-Use-Case-Usage` header.
 */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 341, 613, 80001, 80002]);
/**
 * 368: Meta blocked the action as abusive or against its policies, for a while it does not say.
 * Trying again on a timer would only repeat a refused action (and can lengthen the block): it
 * is a refusal the person must read.
 */
export const META_POLICY_BLOCK_CODE = 368;
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
  if (code === META_POLICY_BLOCK_CODE) return 'bad_request';
  if (RATE_LIMIT_CODES.has(code) || (subcode !== undefined && RATE_LIMIT_SUBCODES.has(subcode))) {
    return 'rate_limited';
  }
  if (TRANSIENT_CODES.has(code) || subcode === NOT_READY_SUBCODE) return 'transient';
  if (isTransient === true || (subcode !== undefined && TRANSIENT_SUBCODES.has(subcode))) {
    return 'transient';
  }
  return 'bad_request';
}

/** The sentence for a policy block (code 368), with Meta's own words after it when it gave some. */
export function metaPolicyBlockMessage(metaWords?: string) {
  const said = metaWords ? ` Meta said: ${metaWords}` : '';
  return `Meta has temporarily blocked this account from this action because it judged it abusive or against its rules (code 368). Herald does not retry it: wait before posting again, check the post against Meta's Community Standards, then publish again.${said}`;
}

/**
 * Minutes → seconds from the `X-Business-Use-Case-Usage` header, a JSON object of business ids,
 * each a list of `{type, call_count, total_cputime, total_time, estimated_time_to_regain_access}`
 * (https://developers.facebook.com/docs/graph-api/overview/rate-limiting). The longest wait
 * among them; undefined when the header is absent, unreadable or says 0.
 */
export function businessUseCaseWaitSeconds(headers: Headers | undefined): number | undefined {
  const raw = headers?.get('x-business-use-case-usage');
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isObj(parsed)) return undefined;
  let minutes = 0;
  for (const usages of Object.values(parsed)) {
    for (const usage of Array.isArray(usages) ? usages : []) {
      const value = isObj(usage) ? Number(usage.estimated_time_to_regain_access) : NaN;
      if (Number.isFinite(value) && value > minutes) minutes = value;
    }
  }
  return minutes > 0 ? Math.ceil(minutes * 60) : undefined;
}

/**
 * Reads a Graph error answer for `requestJson`: Meta's own words, our class, and for a
 * throttle the wait Meta announces in its Business Use Case header.
 */
export function describeMetaError(body: unknown, headers?: Headers): DescribedError {
  const error = (body as GraphErrorBody | null)?.error;
  if (!error || typeof error !== 'object') return {};
  const message = error.error_user_msg || error.message;
  if (typeof error.code !== 'number') return { message };
  const kind = metaErrorKind(error.code, error.error_subcode, error.is_transient);
  if (error.code === META_POLICY_BLOCK_CODE) {
    return { sentence: metaPolicyBlockMessage(message), kind, code: error.code };
  }
  const wait = kind === 'rate_limited' ? businessUseCaseWaitSeconds(headers) : undefined;
  return { message, kind, code: error.code, ...(wait ? { retryAfterSeconds: wait } : {}) };
}

/** True when Meta refused the token itself (already revoked, expired, app removed). */
export const isMetaTokenRejected = (err: unknown) =>
  err instanceof PlatformError && err.kind === 'reauth' && err.details.code === 190;
