import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { isPrivateAddress } from './private-address.js';

/**
 * Fetching a URL a user typed (CSV import's media URLs) without letting them reach Herald's own
 * network (SSRF): only http(s); every address the name resolves to must be public
 * (private-address.ts), checked after DNS resolution and pinned for the connection (no second
 * lookup to rebind); redirects are followed by hand and each hop checked again; the size is
 * capped while streaming (a declared Content-Length over the cap is refused before a byte is
 * read); and slow servers time out.
 */

/** Why a fetch was refused: a sentence that can follow "the media URL …". */
export class FetchRefused extends Error {}

export interface SafeFetchOptions {
  maxBytes: number;
  /** Until the response headers arrive (each hop). */
  headersTimeoutMs?: number;
  /** For the whole body. */
  bodyTimeoutMs?: number;
  maxRedirects?: number;
  /**
   * "host:port" pairs that may be private. For tests only (their media servers listen on
   * loopback); production configures none, and nothing else ever relaxes the check.
   */
  allowPrivate?: readonly string[];
  /** Content types accepted (prefixes); default images and videos. */
  acceptTypes?: readonly string[];
}

export interface FetchedMedia {
  body: Readable;
  contentType: string;
  fileName: string;
  declaredSize: number | null;
}

function guardAddress(address: string, hostPort: string, allow: readonly string[]) {
  if (isPrivateAddress(address) && !allow.includes(hostPort)) {
    throw new FetchRefused(
      `points at a private or local address (${address}), which Herald does not fetch from.`,
    );
  }
}

/** A DNS lookup that refuses private answers; the connection uses the address it returns. */
function guardedLookup(hostPort: string, allow: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      try {
        // Every answer must pass: a name with one public and one private address is refused.
        for (const a of list) guardAddress(a.address, hostPort, allow);
      } catch (refusal) {
        return callback(refusal as Error, '', 0);
      }
      const first = list[0];
      if (!first)
        return callback(new FetchRefused('has a host name that does not resolve.'), '', 0);
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      } else callback(null, first.address, first.family);
    });
  };
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefused('is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchRefused('must start with http:// or https://.');
  }
  if (url.username || url.password)
    throw new FetchRefused('must not contain a user name or password.');
  return url;
}

const hostPortOf = (url: URL) => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return `${host}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
};

/** The checks that need no network: scheme, and a literal private address. */
export function precheckUrl(raw: string, allow: readonly string[] = []): URL {
  const url = parseUrl(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) guardAddress(host, hostPortOf(url), allow);
  else if (host === 'localhost' || host.endsWith('.localhost')) {
    if (!allow.includes(hostPortOf(url))) {
      throw new FetchRefused(
        'points at this machine (localhost), which Herald does not fetch from.',
      );
    }
  }
  return url;
}

/**
 * Sends one request under the guard (every address checked after DNS and pinned; a redirect is
 * the caller's to refuse or follow) and resolves with the answer, whose body the caller reads.
 * `timeoutMs` is the longest silence allowed, the body's included unless `headOnly` (a media
 * download times its body itself). A refused or unreachable host rejects with FetchRefused,
 * saying it `failed` with the cause.
 */
function guardedSend(
  url: URL,
  allow: readonly string[],
  send: {
    method: string;
    headers: Record<string, string | number>;
    body?: string | Buffer;
    timeoutMs: number;
    headOnly?: boolean;
  },
  failed: string,
): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: send.method,
        lookup: guardedLookup(hostPortOf(url), allow),
        headers: send.headers,
        timeout: send.timeoutMs,
      },
      (res) => {
        if (send.headOnly) req.setTimeout(0);
        resolve(res);
      },
    );
    req.on('timeout', () => req.destroy(new FetchRefused('did not answer in time.')));
    req.on('error', (error) =>
      reject(
        error instanceof FetchRefused
          ? error
          : new FetchRefused(`${failed} (${(error as Error).message}).`),
      ),
    );
    req.end(send.body);
  });
}

const request = (url: URL, options: SafeFetchOptions) =>
  guardedSend(
    url,
    options.allowPrivate ?? [],
    {
      method: 'GET',
      headers: { accept: 'image/*, video/*', 'user-agent': 'Herald media import' },
      timeoutMs: options.headersTimeoutMs ?? 10_000,
      headOnly: true,
    },
    'could not be fetched',
  );

/** Streams the media at `raw`, refusing (FetchRefused) anything the rules above do not allow. */
export async function safeFetch(raw: string, options: SafeFetchOptions): Promise<FetchedMedia> {
  const allow = options.allowPrivate ?? [];
  let url = precheckUrl(raw, allow);
  const maxRedirects = options.maxRedirects ?? 3;
  for (let hop = 0; ; hop++) {
    const res = await request(url, options);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= maxRedirects) throw new FetchRefused(`redirects more than ${maxRedirects} times.`);
      url = precheckUrl(new URL(res.headers.location, url).toString(), allow);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new FetchRefused(`answered with HTTP ${status}.`);
    }
    const contentType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const accept = options.acceptTypes ?? ['image/', 'video/'];
    if (!accept.some((prefix) => contentType.startsWith(prefix))) {
      res.destroy();
      throw new FetchRefused(
        `is not an image or a video (the server says ${contentType || 'nothing'}).`,
      );
    }
    const declared = res.headers['content-length'] ? Number(res.headers['content-length']) : null;
    const mb = Math.round(options.maxBytes / (1024 * 1024));
    if (declared !== null && declared > options.maxBytes) {
      res.destroy();
      throw new FetchRefused(`is larger than the ${mb} MB an imported file may have.`);
    }
    let seen = 0;
    const cap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        seen += chunk.length;
        if (seen > options.maxBytes) {
          res.destroy();
          done(new FetchRefused(`is larger than the ${mb} MB an imported file may have.`));
        } else done(null, chunk);
      },
    });
    const timer = setTimeout(
      () => cap.destroy(new FetchRefused('took too long to download.')),
      options.bodyTimeoutMs ?? 60_000,
    );
    cap.on('close', () => clearTimeout(timer));
    res.on('error', (error) => cap.destroy(error));
    res.pipe(cap);
    const name = decodeURIComponent(url.pathname.split('/').pop() ?? '') || 'imported-media';
    return { body: cap, contentType, fileName: name, declaredSize: declared };
  }
}

/**
 * POSTs `body` as JSON to a URL an admin gave (an incoming webhook), with the same rules as a
 * media fetch: http(s) only, every address public (checked after DNS and pinned), nothing
 * followed elsewhere (a redirect is refused), and a short timeout. Resolves with the status of a
 * 2xx answer; refuses (FetchRefused) anything else.
 */
export async function safePostJson(
  raw: string,
  body: unknown,
  options: { allowPrivate?: readonly string[]; timeoutMs?: number } = {},
): Promise<number> {
  const allow = options.allowPrivate ?? [];
  const payload = JSON.stringify(body);
  const res = await guardedSend(
    precheckUrl(raw, allow),
    allow,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
        'user-agent': 'Herald notifications',
      },
      body: payload,
      timeoutMs: options.timeoutMs ?? 10_000,
    },
    'could not be reached',
  );
  res.resume();
  const status = res.statusCode ?? 0;
  if (status >= 200 && status < 300) return status;
  if (status >= 300 && status < 400)
    throw new FetchRefused('redirects elsewhere; give the final address.');
  throw new FetchRefused(`answered with HTTP ${status}.`);
}

/** What a receiver answered to a POST: its status and the start of its body. */
export interface PostAnswer {
  statusCode: number;
  /** At most `excerptBytes` of the answer, as text. */
  excerpt: string;
  /** The answer's `Retry-After` header, as sent, when it has one. */
  retryAfter?: string;
}

/**
 * POSTs the exact bytes `body` with `headers` to a URL an admin gave (an outgoing webhook), under
 * the same guard as `safePostJson`: public addresses only (checked after DNS and pinned), no
 * redirect followed, a timeout. Unlike it, any HTTP answer resolves, so the caller can log the
 * status and the first bytes; only a refused or unreachable destination rejects (FetchRefused).
 */
export async function safePostRaw(
  raw: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate?: readonly string[]; timeoutMs?: number; excerptBytes?: number } = {},
): Promise<PostAnswer> {
  const allow = options.allowPrivate ?? [];
  const cap = options.excerptBytes ?? 1024;
  const res = await guardedSend(
    precheckUrl(raw, allow),
    allow,
    {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      body,
      timeoutMs: options.timeoutMs ?? 15_000,
    },
    'could not be reached',
  );
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    const retryAfter = res.headers['retry-after'];
    const done = () =>
      resolve({
        statusCode: res.statusCode ?? 0,
        excerpt: Buffer.concat(chunks).subarray(0, cap).toString('utf8'),
        ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
      });
    res.on('data', (chunk: Buffer) => {
      if (seen < cap) chunks.push(chunk);
      seen += chunk.length;
      // The rest of a long answer is not worth waiting for.
      if (seen >= cap) {
        res.destroy();
        done();
      }
    });
    res.on('end', done);
    res.on('error', done);
  });
}

/**
 * A fetch for APIs at hosts users name (a Mastodon server): the same rules as a media fetch —
 * http(s) only, every address public (checked after DNS and pinned), redirects not followed (the
 * 3xx answer is returned as it is), a timeout, and an answer of at most `maxBytes`. A refusal
 * rejects with FetchRefused, as an unreachable host would reject a fetch.
 */
export async function guardedRequest(
  raw: string,
  init: RequestInit = {},
  options: { allowPrivate?: readonly string[]; timeoutMs?: number; maxBytes?: number } = {},
): Promise<Response> {
  const allow = options.allowPrivate ?? [];
  const url = precheckUrl(raw, allow);
  // Request normalises every body type (form data, URLSearchParams, bytes) and its content type.
  const normalized = new Request(url, init);
  const headers: Record<string, string> = { 'user-agent': 'Herald' };
  normalized.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const body = normalized.body ? Buffer.from(await normalized.arrayBuffer()) : undefined;
  if (body) headers['content-length'] = String(body.length);
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const res = await guardedSend(
    url,
    allow,
    { method: normalized.method, headers, body, timeoutMs: options.timeoutMs ?? 30_000 },
    'could not be reached',
  );
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    res.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) res.destroy(new FetchRefused('answered with too much data.'));
      else chunks.push(chunk);
    });
    res.on('error', reject);
    // Cut off without an error of its own (the silence limit ended the request): say so.
    res.on('close', () => {
      if (!res.complete) reject(new FetchRefused('stopped answering before the end.'));
    });
    res.on('end', () => {
      const answer = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) answer.append(name, v);
      }
      const status = res.statusCode ?? 502;
      const noBody = status === 204 || status === 304;
      resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: answer }));
    });
  });
}
