import type { PlatformHttp, TokenSet } from './types.js';
import { classifyStatus, type DescribedError, PlatformError, retryAfterSeconds } from './errors.js';

/** Seconds from now as a Date, or null when the network gave no lifetime. */
export const expiresIn = (seconds: unknown, now = Date.now()) =>
  typeof seconds === 'number' && seconds > 0 ? new Date(now + seconds * 1000) : null;

/**
 * Sends a request and parses JSON; a non-2xx answer becomes a PlatformError whose message quotes
 * the network. `describe` extracts the network's own words from its error body (and, from the
 * body or the headers, how long to wait when the network says so).
 */
export async function requestJson<T>(
  http: PlatformHttp,
  network: string,
  url: string,
  init: RequestInit,
  describe: (body: unknown, headers: Headers) => DescribedError = () => ({}),
): Promise<T> {
  let res: Response;
  try {
    res = await http(url, init);
  } catch (err) {
    throw new PlatformError(
      'transient',
      `${network} could not be reached. Please try again in a moment.`,
      {
        code: err instanceof Error ? err.message : undefined,
      },
    );
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!res.ok) {
    const d = describe(body, res.headers);
    const kind = d.kind ?? classifyStatus(res.status);
    const text = d.sentence ?? `${network} said: ${d.message ?? `HTTP ${res.status}`}`;
    throw new PlatformError(kind, text, {
      status: res.status,
      code: d.code,
      retryAfterSeconds: d.retryAfterSeconds ?? retryAfterSeconds(res.headers),
    });
  }
  return body as T;
}

/** application/x-www-form-urlencoded body. */
export const form = (fields: Record<string, string | undefined>) =>
  new URLSearchParams(
    Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined),
  );

export const basicAuth = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** A TokenSet from a standard OAuth 2.0 token answer. */
export function tokenSetFromOAuth(
  body: Record<string, unknown>,
  previousRefresh: string | null = null,
): TokenSet {
  return {
    accessToken: String(body.access_token),
    accessTokenExpiresAt: expiresIn(body.expires_in),
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : previousRefresh,
    refreshTokenExpiresAt: expiresIn(body.refresh_token_expires_in ?? body.refresh_expires_in),
    scopes: typeof body.scope === 'string' ? body.scope.split(/[ ,]+/).filter(Boolean) : [],
  };
}
