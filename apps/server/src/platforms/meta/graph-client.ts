import { PlatformError } from '../errors.js';
import { form, requestJson } from '../oauth.js';
import type { AdapterSettings, PlatformHttp } from '../types.js';
import type { MetaNetwork } from './api.js';
import { describeMetaError } from './errors.js';
import { META_TIMING, type MetaPublishingOptions } from './limits.js';
import type { MetaUrls } from './urls.js';

type Params = Record<string, string | undefined>;

/**
 * Calls `http` with a deadline: the signal stops a real fetch (body included), and the timer
 * covers transports that ignore signals (the in-process sandbox fetch).
 */
export function withDeadline(http: PlatformHttp, url: string, init: RequestInit, ms: number) {
  return new Promise<Response>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No answer within ${ms} ms.`)), ms);
    http(url, { ...init, signal: AbortSignal.timeout(ms) }).then(
      (res) => {
        clearTimeout(timer);
        resolve(res);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/**
 * Graph calls for publishing and comments, shared by Instagram and Facebook Pages: the token
 * in the Authorization header, parameters as a form, every call bounded in time, errors as
 * PlatformError with Meta's words (meta/errors.ts).
 */
export function createGraphClient(
  settings: AdapterSettings<MetaUrls>,
  network: MetaNetwork,
  options: MetaPublishingOptions = {},
) {
  const timing = { ...META_TIMING, ...options };
  const { urls, http } = settings;

  // `path` may carry its own query: an upload session id is `upload:{id}?sig={signature}`.
  const urlOf = (path: string, params: Params) => {
    const url = new URL(`${urls.graphBase}/${urls.graphVersion}/${path}`);
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    return url.toString();
  };

  async function send<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    token: string,
    params: Params,
    opts: {
      timeoutMs: number;
      bytes?: { body: NonNullable<RequestInit['body']>; headers: Record<string, string> };
    },
  ): Promise<T> {
    const init: RequestInit = opts.bytes
      ? {
          method,
          headers: { authorization: `OAuth ${token}`, ...opts.bytes.headers },
          body: opts.bytes.body,
          // A streamed body (a video read from storage) needs half-duplex in fetch.
          duplex: 'half',
        }
      : {
          method,
          headers: { authorization: `OAuth ${token}` },
          ...(method === 'POST' ? { body: form(params) } : {}),
        };
    const url = urlOf(path, method === 'POST' ? {} : params);
    const timed: PlatformHttp = (u, i) => withDeadline(http, u, i ?? {}, opts.timeoutMs);
    try {
      return await requestJson<T>(timed, network, url, init, describeMetaError);
    } catch (err) {
      if (err instanceof PlatformError) throw err;
      // The answer stopped half-way: the body did not arrive before the timeout.
      throw new PlatformError(
        'transient',
        `${network} did not answer in time. Please try again in a moment.`,
      );
    }
  }

  const regular = { timeoutMs: timing.requestTimeoutMs };
  return {
    timing,
    get: <T>(path: string, token: string, params: Params = {}) =>
      send<T>('GET', path, token, params, regular),
    post: <T>(path: string, token: string, params: Params) =>
      send<T>('POST', path, token, params, regular),
    /**
     * Raw bytes with their own headers (the Resumable Upload API's `file_offset`), the token in
     * the Authorization header, within `timeoutMs`.
     */
    postBytes: <T>(
      path: string,
      token: string,
      bytes: { body: NonNullable<RequestInit['body']>; headers: Record<string, string> },
      timeoutMs: number,
    ) => send<T>('POST', path, token, {}, { timeoutMs, bytes }),
    delete: <T>(path: string, token: string) => send<T>('DELETE', path, token, {}, regular),
    /**
     * The visible call. It is never repeated here: a timeout, a dropped connection or a 5xx
     * leaves the outcome unknown, and the engine reconciles before anything else.
     */
    async publish<T>(path: string, token: string, params: Params): Promise<T> {
      try {
        return await send<T>('POST', path, token, params, {
          timeoutMs: timing.finalizeTimeoutMs,
        });
      } catch (err) {
        throw asUnknownOutcome(err, network);
      }
    },
  };
}

export type GraphClient = ReturnType<typeof createGraphClient>;

/** A transient failure of a visible call (no answer, or a 5xx) becomes unknown_outcome. */
export function asUnknownOutcome(err: unknown, network: MetaNetwork): unknown {
  if (!(err instanceof PlatformError) || err.kind !== 'transient') return err;
  const status = err.details.status;
  if (status !== undefined && status < 500) return err;
  return new PlatformError(
    'unknown_outcome',
    `${network} did not confirm whether the post went out. Herald checks before trying again.`,
    err.details,
  );
}

/** Graph's `2026-01-02T03:04:05+0000` as an ISO 8601 string (`…T03:04:05.000Z`). */
export function graphTimeToIso(value: string | undefined): string {
  const normalized = (value ?? '').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(normalized);
  return Number.isNaN(ms) ? new Date(0).toISOString() : new Date(ms).toISOString();
}

/** Milliseconds of a Graph timestamp, or null. */
export function graphTimeMs(value: string | undefined): number | null {
  const ms = Date.parse((value ?? '').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? null : ms;
}

/** Graph gives some permalinks relative to facebook.com (videos). */
export const absoluteFacebookUrl = (value: string | undefined) =>
  !value ? null : value.startsWith('/') ? `https://www.facebook.com${value}` : value;
