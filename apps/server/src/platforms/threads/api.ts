import { PlatformError } from '../errors.js';
import { form, requestJson } from '../oauth.js';
import type { AdapterSettings } from '../types.js';
import { describeThreadsError } from './errors.js';
import { THREADS_GRAPH_VERSION, THREADS_PROFILE_FIELDS } from './limits.js';

/** Where Threads lives (docs/networks.md#sandboxes): production or the sandbox, same paths. */
export interface ThreadsUrls {
  authorizeUrl: string;
  graphBase: string;
}

export interface ThreadsShortToken {
  access_token: string;
  user_id?: number | string;
}

export interface ThreadsLongToken {
  access_token: string;
  token_type?: string;
  expires_in?: number;
}

export interface ThreadsProfile {
  id: string;
  username?: string;
  name?: string;
  threads_profile_picture_url?: string;
  threads_biography?: string;
}

/**
 * Typed calls to the Threads Graph host. Tokens travel as the `access_token` query parameter,
 * as Threads documents; Herald never logs request URLs.
 */
export function createThreadsApi(settings: AdapterSettings<ThreadsUrls>) {
  const base = settings.urls.graphBase;
  const call = <T>(url: string, init: RequestInit = {}) =>
    requestJson<T>(settings.http, 'Threads', url, init, describeThreadsError);
  const withQuery = (path: string, params: Record<string, string>) =>
    `${base}${path}?${new URLSearchParams(params).toString()}`;

  function requireToken<T extends { access_token?: unknown }>(body: T): T {
    if (typeof body?.access_token !== 'string')
      throw new PlatformError(
        'bad_request',
        'Threads answered the token request without an access token.',
      );
    return body;
  }

  return {
    /** Code → short-lived (1 h) token. */
    exchangeCode: async (input: { code: string; redirectUri: string }) =>
      requireToken(
        await call<ThreadsShortToken>(`${base}/oauth/access_token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({
            client_id: settings.clientId,
            client_secret: settings.clientSecret,
            code: input.code,
            grant_type: 'authorization_code',
            redirect_uri: input.redirectUri,
          }),
        }),
      ),

    /** Short-lived → long-lived (60 days). */
    exchangeForLongLived: async (shortToken: string) =>
      requireToken(
        await call<ThreadsLongToken>(
          withQuery('/access_token', {
            grant_type: 'th_exchange_token',
            client_secret: settings.clientSecret,
            access_token: shortToken,
          }),
        ),
      ),

    /** A long-lived token at least 24 h old → a new one valid 60 days from now. */
    refreshLongLived: async (token: string) =>
      requireToken(
        await call<ThreadsLongToken>(
          withQuery('/refresh_access_token', {
            grant_type: 'th_refresh_token',
            access_token: token,
          }),
        ),
      ),

    async getMe(token: string): Promise<ThreadsProfile> {
      const body = await call<ThreadsProfile>(
        withQuery(`/${THREADS_GRAPH_VERSION}/me`, {
          fields: THREADS_PROFILE_FIELDS.join(','),
          access_token: token,
        }),
      );
      if (!body?.id)
        throw new PlatformError('bad_request', 'Threads answered without the account id.');
      return { ...body, id: String(body.id) };
    },
  };
}
