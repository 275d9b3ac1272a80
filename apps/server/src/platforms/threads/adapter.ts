import { expiresIn } from '../oauth.js';
import type { AdapterSettings, PlatformAdapter, TokenSet } from '../types.js';
import { createThreadsApi, type ThreadsLongToken, type ThreadsUrls } from './api.js';
import {
  THREADS_LONG_TOKEN_SECONDS,
  THREADS_SCOPES,
  THREADS_TIMING,
  type ThreadsTiming,
} from './limits.js';
import { createThreadsPublishApi } from './publish-api.js';
import { createThreadsPublishing } from './publishing.js';

/**
 * Threads through its own OAuth (no PKCE): the code buys a 1 h token, traded at once for a
 * 60-day one, which is refreshed by itself (`th_refresh_token`, once ≥ 24 h old). There is no
 * refresh token and no revoke endpoint (docs/networks.md#threads-oauth). Publishing and replies: see
 * publishing.ts and comments.ts; `timing` is shorter in tests.
 */
export function createThreadsAdapter(
  settings: AdapterSettings<ThreadsUrls>,
  timing: ThreadsTiming = THREADS_TIMING,
): PlatformAdapter {
  const api = createThreadsApi(settings);

  const tokensFrom = (body: ThreadsLongToken, scopes: string[]): TokenSet => ({
    accessToken: body.access_token,
    accessTokenExpiresAt: expiresIn(body.expires_in ?? THREADS_LONG_TOKEN_SECONDS),
    refreshToken: null,
    refreshTokenExpiresAt: null,
    // Threads' token answers name no scopes: what was asked for is what the consent covered.
    scopes,
  });

  return {
    name: 'Threads',
    publishing: createThreadsPublishing(createThreadsPublishApi(settings, timing), timing),

    authorizeUrl({ redirectUri, state }) {
      const query = new URLSearchParams({
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        scope: THREADS_SCOPES.join(','),
        response_type: 'code',
        state,
      });
      return `${settings.urls.authorizeUrl}?${query.toString()}`;
    },

    async connect({ code, redirectUri }) {
      const short = await api.exchangeCode({ code, redirectUri });
      const long = await api.exchangeForLongLived(short.access_token);
      const me = await api.getMe(long.access_token);
      return [
        {
          externalId: me.id,
          username: me.username ?? null,
          name: me.name ?? null,
          pictureUrl: me.threads_profile_picture_url ?? null,
          tokens: tokensFrom(long, [...THREADS_SCOPES]),
        },
      ];
    },

    async refresh(account) {
      const body = await api.refreshLongLived(account.tokens.accessToken);
      return tokensFrom(
        body,
        account.tokens.scopes.length ? account.tokens.scopes : [...THREADS_SCOPES],
      );
    },
  };
}
