import { PlatformError } from '../errors.js';
import { expiresIn, tokenSetFromOAuth } from '../oauth.js';
import type { AdapterSettings, PlatformAdapter, TokenSet } from '../types.js';
import { createTikTokApi, type TikTokTokenResponse, type TikTokUrls } from './api.js';
import {
  TIKTOK_ACCESS_TOKEN_SECONDS,
  TIKTOK_BASIC_FIELDS,
  TIKTOK_CREATOR_INFO_SCOPE,
  TIKTOK_PROFILE_SCOPE,
  TIKTOK_REFRESH_TOKEN_SECONDS,
  TIKTOK_SCOPES,
  TIKTOK_TIMING,
  type TikTokTiming,
} from './limits.js';
import { creatorView } from './post-settings.js';
import { createTikTokPublishApi } from './publish-api.js';
import { createTikTokPublishing } from './publishing.js';

/**
 * TikTok Login Kit for the web (no PKCE) with Content Posting scopes (docs/networks.md#tiktok-oauth).
 * The client is named `client_key`; scopes are a comma list; refresh tokens rotate. Publishing:
 * see publishing.ts; `timing` is shorter in tests.
 */
export function createTikTokAdapter(
  settings: AdapterSettings<TikTokUrls>,
  timing: TikTokTiming = TIKTOK_TIMING,
): PlatformAdapter {
  const api = createTikTokApi(settings);

  function tokensFrom(body: TikTokTokenResponse, previous: TokenSet | null): TokenSet {
    const tokens = tokenSetFromOAuth({ ...body }, previous?.refreshToken ?? null);
    return {
      ...tokens,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt ?? expiresIn(TIKTOK_ACCESS_TOKEN_SECONDS),
      refreshTokenExpiresAt:
        tokens.refreshTokenExpiresAt ??
        (body.refresh_token
          ? expiresIn(TIKTOK_REFRESH_TOKEN_SECONDS)
          : (previous?.refreshTokenExpiresAt ?? null)),
      scopes: tokens.scopes.length ? tokens.scopes : (previous?.scopes ?? []),
    };
  }

  /** The handle: from the profile when user.info.profile was granted, else from creator_info. */
  async function usernameOf(
    accessToken: string,
    scopes: string[],
    fromProfile: string | undefined,
  ) {
    if (fromProfile) return fromProfile;
    if (!scopes.includes(TIKTOK_CREATOR_INFO_SCOPE)) return null;
    try {
      return (await api.creatorInfo(accessToken)).creator_username ?? null;
    } catch (err) {
      // A creator TikTok will not let post still connects; publishing reports that itself.
      if (err instanceof PlatformError && err.kind === 'bad_request') return null;
      throw err;
    }
  }

  const publishApi = createTikTokPublishApi(settings, timing);
  return {
    name: 'TikTok',
    publishing: createTikTokPublishing(publishApi, timing, { unaudited: settings.unaudited }),

    async creatorInfo(account) {
      return creatorView(
        await publishApi.creatorInfo(account.tokens.accessToken),
        settings.unaudited === true,
      );
    },

    authorizeUrl({ redirectUri, state }) {
      const query = new URLSearchParams({
        client_key: settings.clientId,
        scope: TIKTOK_SCOPES.join(','),
        redirect_uri: redirectUri,
        state,
        response_type: 'code',
      });
      return `${settings.urls.authorizeUrl}?${query.toString()}`;
    },

    async connect({ code, redirectUri }) {
      const body = await api.exchangeCode({ code, redirectUri });
      const tokens = tokensFrom(body, null);
      const withProfile = tokens.scopes.includes(TIKTOK_PROFILE_SCOPE);
      const user = await api.getUser(body.access_token, [
        ...TIKTOK_BASIC_FIELDS,
        ...(withProfile ? ['username'] : []),
      ]);
      return [
        {
          externalId: user.open_id,
          username: await usernameOf(body.access_token, tokens.scopes, user.username),
          name: user.display_name ?? null,
          pictureUrl: user.avatar_url ?? null,
          tokens,
          extra: user.union_id ? { unionId: user.union_id } : {},
        },
      ];
    },

    async refresh(account) {
      if (!account.tokens.refreshToken)
        throw new PlatformError(
          'reauth',
          'TikTok gave Herald no refresh token for this account. Reconnect it.',
        );
      return tokensFrom(await api.refresh(account.tokens.refreshToken), account.tokens);
    },

    async revoke(account) {
      await api.revoke(account.tokens.accessToken);
    },
  };
}
