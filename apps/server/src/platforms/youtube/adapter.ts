import { PlatformError } from '../errors.js';
import { expiresIn, tokenSetFromOAuth } from '../oauth.js';
import type { AdapterSettings, ConnectableAccount, PlatformAdapter, TokenSet } from '../types.js';
import {
  createYouTubeApi,
  type GoogleTokenResponse,
  type YouTubeChannel,
  type YouTubeUrls,
} from './api.js';
import { YOUTUBE_ACCESS_TOKEN_SECONDS, YOUTUBE_SCOPES } from './limits.js';
import { createYouTubePublishing } from './publishing.js';

/** The channel's picture, largest first. */
const pictureOf = (channel: YouTubeChannel) => {
  const t = channel.snippet?.thumbnails ?? {};
  return t.high?.url ?? t.medium?.url ?? t.default?.url ?? null;
};

/**
 * Google OAuth for YouTube (docs/networks.md#youtube-oauth): PKCE, `access_type=offline` and
 * `prompt=consent` so that every sign-in returns a refresh token. A Google user may own several
 * channels (brand accounts): every channel `channels.list?mine=true` answers is offered, and the
 * person picks among them as among Facebook Pages.
 */
export function createYouTubeAdapter(settings: AdapterSettings<YouTubeUrls>): PlatformAdapter {
  const api = createYouTubeApi(settings);

  function tokensFrom(body: GoogleTokenResponse, previous: TokenSet | null): TokenSet {
    const tokens = tokenSetFromOAuth({ ...body }, previous?.refreshToken ?? null);
    return {
      ...tokens,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt ?? expiresIn(YOUTUBE_ACCESS_TOKEN_SECONDS),
      // Google says nothing of the refresh token's lifetime (7 days for apps in testing mode).
      refreshTokenExpiresAt: null,
      scopes: tokens.scopes.length ? tokens.scopes : (previous?.scopes ?? []),
    };
  }

  return {
    name: 'YouTube',
    publishing: createYouTubePublishing(api, { unaudited: settings.unaudited === true }),

    authorizeUrl({ redirectUri, state, codeChallenge }) {
      const query = new URLSearchParams({
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: YOUTUBE_SCOPES.join(' '),
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      });
      return `${settings.urls.authorizeUrl}?${query.toString()}`;
    },

    async connect({ code, redirectUri, codeVerifier }) {
      const body = await api.exchangeCode({ code, redirectUri, codeVerifier });
      const tokens = tokensFrom(body, null);
      const channels = await api.myChannels(body.access_token);
      if (channels.length === 0)
        throw new PlatformError(
          'bad_request',
          'This Google account has no YouTube channel yet. Create the channel on youtube.com, then connect it again.',
          { code: 'youtubeSignupRequired' },
        );
      // One grant serves every channel of this sign-in: revoking it for one revokes it for all.
      const grantKey = `google:${channels.map((c) => c.id).join(',')}`;
      return channels.map((channel): ConnectableAccount => ({
        externalId: channel.id,
        username: channel.snippet?.customUrl?.replace(/^@/, '') ?? null,
        name: channel.snippet?.title ?? null,
        pictureUrl: pictureOf(channel),
        tokens,
        extra: { channelId: channel.id },
        ...(channels.length > 1 ? { grantKey } : {}),
      }));
    },

    async refresh(account) {
      if (!account.tokens.refreshToken)
        throw new PlatformError(
          'reauth',
          'Google gave Herald no refresh token for this YouTube channel. Reconnect it.',
        );
      return tokensFrom(await api.refresh(account.tokens.refreshToken), account.tokens);
    },

    async revoke(account) {
      await api.revoke(account.tokens.refreshToken ?? account.tokens.accessToken);
    },
  };
}
