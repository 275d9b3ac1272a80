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
}

const FORM = 'application/x-www-form-urlencoded';

/**
 * X announces when a window reopens in `x-rate-limit-reset` (epoch seconds), not Retry-After;
 * translating it lets the shared request helper report the wait.
 */
export function withRateLimitReset(http: PlatformHttp): PlatformHttp {
  return async (url, init) => {
    const res = await http(url, init);
    const reset = Number(res.headers.get('x-rate-limit-reset'));
    if (res.status !== 429 || res.headers.has('retry-after') || !(reset > 0)) return res;
    const headers = new Headers(res.headers);
    headers.set('retry-after', String(Math.max(0, Math.ceil(reset - Date.now() / 1000))));
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
