import { PlatformError } from '../errors.js';
import { basicAuth, form, requestJson } from '../oauth.js';
import type { AdapterSettings, PlatformHttp } from '../types.js';
import { describeXApiError, describeXTokenError, type XTokenRequest } from './errors.js';
import { X_USER_FIELDS } from './limits.js';

/** Where X lives (docs/networks.md#sandboxes): production or the sandbox, same paths. */
export interface XUrls {
  authorizeUrl: string;
  apiBase: string;
}

export interface XTokenResponse {
  token_type: string;
  expires_in?: number;
  access_token: string;
  scope?: string;
  refresh_token?: string;
}

export interface XUser {
  id: string;
  name: string;
  username: string;
  profile_image_url?: string;
  verified?: boolean;
  verified_type?: string;
  /** Basic | Premium | PremiumPlus | None (X's SDK reference, `Schemas.User`). */
  subscription_type?: string;
}

const FORM = 'application/x-www-form-urlencoded';

/**
 * The limits whose reset an X answer may announce, each as `{prefix}-remaining` and
 * `{prefix}-reset` (epoch seconds): the 15-minute window of the endpoint, and the 24-hour caps
 * per user and per app (docs/networks.md#x-limits).
 */
const X_LIMIT_HEADERS = ['x-rate-limit', 'x-user-limit-24hour', 'x-app-limit-24hour'] as const;

/**
 * Seconds until a refused call may succeed: the latest reset among the limits that are used up (a
 * 24-hour cap waits for its own reset, not the 15-minute window). A limit is used up when its
 * `-remaining` is 0, or absent beside a reset.
 */
export function xRateLimitWaitSeconds(headers: Headers, nowMs = Date.now()): number | undefined {
  let latest: number | undefined;
  for (const prefix of X_LIMIT_HEADERS) {
    const reset = Number(headers.get(`${prefix}-reset`));
    if (!(reset > 0)) continue;
    const remaining = headers.get(`${prefix}-remaining`);
    if (remaining !== null && Number(remaining) > 0) continue;
    latest = Math.max(latest ?? 0, reset);
  }
  return latest === undefined ? undefined : Math.max(0, Math.ceil(latest - nowMs / 1000));
}

/**
 * X announces when a limit reopens in its `*-reset` headers (epoch seconds), not Retry-After;
 * translating them lets the shared request helper report the wait.
 */
export function withRateLimitReset(http: PlatformHttp): PlatformHttp {
  return async (url, init) => {
    const res = await http(url, init);
    if (res.status !== 429 || res.headers.has('retry-after')) return res;
    const wait = xRateLimitWaitSeconds(res.headers);
    if (wait === undefined) return res;
    const headers = new Headers(res.headers);
    headers.set('retry-after', String(wait));
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
}

/** Typed calls to X's OAuth 2.0 and users endpoints, as a confidential client. */
export function createXApi(settings: AdapterSettings<XUrls>) {
  const http = withRateLimitReset(settings.http);
  const base = settings.urls.apiBase;
  const clientAuth = basicAuth(settings.clientId, settings.clientSecret);

  async function tokenRequest(fields: Record<string, string>, request: XTokenRequest) {
    const body = await requestJson<XTokenResponse>(
      http,
      'X',
      `${base}/2/oauth2/token`,
      {
        method: 'POST',
        headers: { authorization: clientAuth, 'content-type': FORM },
        body: form(fields),
      },
      describeXTokenError(request),
    );
    if (typeof body?.access_token !== 'string')
      throw new PlatformError(
        'bad_request',
        'X answered the token request without an access token.',
      );
    return body;
  }

  return {
    exchangeCode: (input: { code: string; redirectUri: string; codeVerifier: string }) =>
      tokenRequest(
        {
          grant_type: 'authorization_code',
          code: input.code,
          redirect_uri: input.redirectUri,
          code_verifier: input.codeVerifier,
        },
        'code',
      ),

    refresh: (refreshToken: string) =>
      tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'refresh'),

    async revoke(token: string, hint: 'access_token' | 'refresh_token') {
      await requestJson<unknown>(
        http,
        'X',
        `${base}/2/oauth2/revoke`,
        {
          method: 'POST',
          headers: { authorization: clientAuth, 'content-type': FORM },
          body: form({ token, token_type_hint: hint }),
        },
        describeXTokenError('revoke'),
      );
    },

    /** `GET /2/users/me` (docs/networks.md#account-identity). A 200 may still carry only `errors[]`. */
    async getMe(accessToken: string): Promise<XUser> {
      const body = await requestJson<{ data?: XUser; errors?: unknown[] }>(
        http,
        'X',
        `${base}/2/users/me?user.fields=${X_USER_FIELDS.join(',')}`,
        { headers: { authorization: `Bearer ${accessToken}` } },
        describeXApiError,
      );
      if (!body?.data?.id) {
        const d = describeXApiError(body);
        throw new PlatformError(
          d.kind ?? 'bad_request',
          `X said: ${d.message ?? 'no account was returned.'}`,
          {
            code: d.code,
          },
        );
      }
      return body.data;
    },
  };
}
