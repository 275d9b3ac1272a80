import { type DescribedError, isObj, type PlatformErrorKind, str } from '../errors.js';
import {
  businessUseCaseWaitSeconds,
  META_POLICY_BLOCK_CODE,
  metaPolicyBlockMessage,
} from '../meta/errors.js';

/**
 * Threads answers with the Graph error envelope
 * `{error:{message, type, code, error_subcode, error_user_msg, is_transient, fbtrace_id}}`
 * (docs/networks.md#meta-errors, #threads); its OAuth endpoints may instead answer Instagram's flat
 * `{error_type, code, error_message}`. Codes decide the class; the HTTP status is the fallback.
 */
const num = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;

const REAUTH = new Set([190, 102, 10]);
const RATE_LIMITED = new Set([4, 17, 32, 613, 341]);
// 9007: "media not ready for publishing" — nothing was published; look again shortly.
const TRANSIENT = new Set([1, 2, 9007]);
// 9004: Threads could not fetch the media URL.
const BAD_REQUEST = new Set([3, 100, 101, 506, 9004]);
/** Subcodes that say more than their code. */
const SUBCODE_KINDS: Record<number, PlatformErrorKind> = {
  2207042: 'rate_limited', // daily publishing cap reached
  2207027: 'transient', // container not ready yet
  4279009: 'transient', // container not found yet, just after creation (docs/networks.md#threads-publishing, peer)
};

/** The class of a Graph error code (docs/networks.md#meta-errors). */
export function graphErrorKind(
  code: number | undefined,
  subcode?: number,
  isTransient?: unknown,
): PlatformErrorKind | undefined {
  if (subcode !== undefined && SUBCODE_KINDS[subcode]) return SUBCODE_KINDS[subcode];
  if (code === undefined) return isTransient === true ? 'transient' : undefined;
  // 200–299: a permission is missing or was removed; asking for it again means reconnecting.
  if (REAUTH.has(code) || (code >= 200 && code <= 299)) return 'reauth';
  // A policy block: a refusal to read, not a throttle to wait out (meta/errors.ts).
  if (code === META_POLICY_BLOCK_CODE) return 'bad_request';
  if (RATE_LIMITED.has(code)) return 'rate_limited';
  if (TRANSIENT.has(code) || isTransient === true) return 'transient';
  if (BAD_REQUEST.has(code)) return 'bad_request';
  return undefined;
}

export function describeThreadsError(body: unknown, headers?: Headers): DescribedError {
  if (isObj(body) && isObj(body.error)) {
    const e = body.error;
    const code = num(e.code);
    const message = str(e.error_user_msg) ?? str(e.message);
    const kind = graphErrorKind(code, num(e.error_subcode), e.is_transient);
    if (code === META_POLICY_BLOCK_CODE) {
      return { sentence: metaPolicyBlockMessage(message), kind, code };
    }
    const wait = kind === 'rate_limited' ? businessUseCaseWaitSeconds(headers) : undefined;
    return { message, kind, code, ...(wait ? { retryAfterSeconds: wait } : {}) };
  }
  if (isObj(body) && (str(body.error_message) || str(body.error_type))) {
    // Flat OAuth answer: `code` is the HTTP status there, unless it is a Graph code.
    const code = num(body.code);
    return {
      message: str(body.error_message) ?? str(body.error_type),
      kind: code !== undefined && code < 400 ? graphErrorKind(code) : undefined,
      code: str(body.error_type) ?? code,
    };
  }
  return { message: str(body)?.slice(0, 300) };
}
