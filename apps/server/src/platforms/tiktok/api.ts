import { PlatformError } from '../errors.js';
import { form, requestJson } from '../oauth.js';
import type { AdapterSettings } from '../types.js';
import { describeTikTokError, isTikTokError, type TikTokRequest } from './errors.js';

/** Where TikTok lives (docs/networks.md#sandboxes): production or the sandbox, same paths. */
export interface TikTokUrls {
  authorizeUrl: string;
  apiBase: string;
}

export interface TikTokTokenResponse {
  open_id: string;
  scope: string;
  access_token: string;
  expires_in: number;
  refresh_token: string;
  refresh_expires_in: number;
  token_type: string;
}

export interface TikTokUser {
  open_id: string;
  union_id?: string;
  avatar_url?: string;
  display_name?: string;
  username?: string;
}

export interface TikTokCreatorInfo {
  creator_avatar_url?: string;
  creator_username?: string;
  creator_nickname?: string;
  privacy_level_options?: string[];
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_UTF8 = 'application/json; charset=UTF-8';

/** Typed calls to open.tiktokapis.com: OAuth (client_key, not client_id) and the account. */
export function createTikTokApi(settings: AdapterSettings<TikTokUrls>) {
  const base = settings.urls.apiBase;
  const client = { client_key: settings.clientId, client_secret: settings.clientSecret };

  /** requestJson, plus TikTok's errors that arrive with HTTP 200. */
  async function call<T>(path: string, init: RequestInit, request: TikTokRequest): Promise<T> {
    const describe = describeTikTokError(request);
    const body = await requestJson<T>(settings.http, 'TikTok', `${base}${path}`, init, describe);
    if (isTikTokError(body)) {
      const d = describe(body);
      throw new PlatformError(
        d.kind ?? 'bad_request',
        d.sentence ?? `TikTok said: ${d.message ?? 'the request failed.'}`,
        { status: 200, code: d.code, retryAfterSeconds: d.retryAfterSeconds },
      );
    }
    return body;
  }

  async function token(fields: Record<string, string>, request: TikTokRequest) {
    const body = await call<TikTokTokenResponse>(
      '/v2/oauth/token/',
      { method: 'POST', headers: { 'content-type': FORM }, body: form({ ...client, ...fields }) },
      request,
    );
    if (typeof body?.access_token !== 'string')
      throw new PlatformError(
        'bad_request',
        'TikTok answered the token request without an access token.',
      );
    return body;
  }

  return {
    exchangeCode: (input: { code: string; redirectUri: string }) =>
      token(
        { code: input.code, grant_type: 'authorization_code', redirect_uri: input.redirectUri },
        'code',
      ),

    refresh: (refreshToken: string) =>
      token({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'refresh'),

    async revoke(accessToken: string) {
      await call<unknown>(
        '/v2/oauth/revoke/',
        {
          method: 'POST',
          headers: { 'content-type': FORM },
          body: form({ ...client, token: accessToken }),
        },
        'revoke',
      );
    },

    async getUser(accessToken: string, fields: readonly string[]): Promise<TikTokUser> {
      const body = await call<{ data?: { user?: TikTokUser } }>(
        `/v2/user/info/?fields=${fields.join(',')}`,
        { headers: { authorization: `Bearer ${accessToken}` } },
        'api',
      );
      const user = body?.data?.user;
      if (!user?.open_id)
        throw new PlatformError('bad_request', 'TikTok answered without the account id.');
      return user;
    },

    async creatorInfo(accessToken: string): Promise<TikTokCreatorInfo> {
      const body = await call<{ data?: TikTokCreatorInfo }>(
        '/v2/post/publish/creator_info/query/',
        {
          method: 'POST',
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': JSON_UTF8 },
          body: '{}',
        },
        'api',
      );
      return body?.data ?? {};
    },
  };
}
