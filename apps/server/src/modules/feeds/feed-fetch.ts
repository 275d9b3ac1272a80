import { FetchRefused, guardedRequest } from '../../media/safe-fetch.js';

/** A feed bigger than this is refused: real feeds are kilobytes to a few megabytes. */
export const FEED_MAX_BYTES = 5 * 1024 * 1024;
/** The whole fetch, redirects and body included, must be done within this. */
export const FEED_FETCH_TIMEOUT_MS = 20_000;
const MAX_REDIRECTS = 3;

export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
  /** The address the validators were answered for (they belong to the final URL). */
  url: string | null;
}

export type FeedFetch =
  | { kind: 'unchanged'; finalUrl: string; maxAgeMs: number | null }
  | {
      kind: 'body';
      finalUrl: string;
      body: string;
      contentType: string;
      validators: FeedValidators;
      /** `Cache-Control: max-age`: how long the answer stays fresh (null: not said). */
      maxAgeMs: number | null;
    };

/** `Cache-Control: max-age=N` as milliseconds; null when absent or unreadable. */
export function maxAgeMsOf(cacheControl: string | null): number | null {
  const match = /(?:^|[,\s])max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl ?? '');
  return match ? Number(match[1]) * 1000 : null;
}

/** Why a fetch did not give a feed: a sentence, and how long the server asked us to wait. */
export class FeedFetchFailed extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

const STATUS_WORDS: Record<number, string> = {
  401: 'it needs a sign-in Herald does not have',
  403: 'it refuses Herald',
  404: 'nothing is at this address',
  410: 'the feed is gone for good',
  429: 'Herald asked too often',
  500: 'the server had an error',
  502: 'the server is unreachable behind its proxy',
  503: 'the server is unavailable for now',
};

/** `Retry-After` as milliseconds (seconds or an HTTP date); null when absent or unreadable. */
function retryAfterMs(value: string | null, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

async function fetchOnce(
  raw: string,
  validators: FeedValidators,
  allowPrivate: readonly string[],
  now: () => Date,
): Promise<FeedFetch> {
  let url = raw;
  for (let hop = 0; ; hop++) {
    const headers: Record<string, string> = {
      accept:
        'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5',
      'user-agent': 'Herald feed reader',
    };
    // Validators are sent only to the address that answered them.
    if (validators.url === url) {
      if (validators.etag) headers['if-none-match'] = validators.etag;
      if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
    }
    let res: Response;
    try {
      res = await guardedRequest(
        url,
        { headers },
        { allowPrivate, timeoutMs: FEED_FETCH_TIMEOUT_MS, maxBytes: FEED_MAX_BYTES },
      );
    } catch (error) {
      if (error instanceof FetchRefused) {
        const tooBig = error.message.startsWith('answered with too much data');
        throw new FeedFetchFailed(
          tooBig
            ? `The feed is larger than the ${FEED_MAX_BYTES / (1024 * 1024)} MB Herald reads.`
            : `The feed address ${error.message}`,
        );
      }
      throw error;
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && res.status !== 304 && location) {
      if (hop >= MAX_REDIRECTS)
        throw new FeedFetchFailed(`The feed address redirects more than ${MAX_REDIRECTS} times.`);
      url = new URL(location, url).toString();
      continue;
    }
    const maxAgeMs = maxAgeMsOf(res.headers.get('cache-control'));
    if (res.status === 304) return { kind: 'unchanged', finalUrl: url, maxAgeMs };
    if (res.status < 200 || res.status >= 300) {
      const words = STATUS_WORDS[res.status];
      throw new FeedFetchFailed(
        `The feed's server answered HTTP ${res.status}${words ? ` (${words})` : ''}.`,
        retryAfterMs(res.headers.get('retry-after'), now().getTime()),
      );
    }
    return {
      kind: 'body',
      finalUrl: url,
      body: await res.text(),
      contentType: res.headers.get('content-type') ?? '',
      validators: {
        etag: res.headers.get('etag'),
        lastModified: res.headers.get('last-modified'),
        url,
      },
      maxAgeMs,
    };
  }
}

/**
 * Fetches a feed through the SSRF guard (public addresses only, checked after DNS and pinned;
 * each redirect checked again), conditionally when validators are known, with a byte cap and a
 * time cap over the whole fetch. Throws FeedFetchFailed with a sentence for the member.
 */
export function fetchFeed(
  url: string,
  validators: FeedValidators,
  allowPrivate: readonly string[],
  now: () => Date,
): Promise<FeedFetch> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new FeedFetchFailed(
            `The feed took longer than ${FEED_FETCH_TIMEOUT_MS / 1000} seconds to download.`,
          ),
        ),
      FEED_FETCH_TIMEOUT_MS,
    );
  });
  return Promise.race([fetchOnce(url, validators, allowPrivate, now), timeout]).finally(() =>
    clearTimeout(timer),
  );
}
