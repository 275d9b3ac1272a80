import { PlatformError } from '../errors.js';
import { googleAuthorizeUrl, googleTokenSet, type GoogleTokenResponse } from '../google-oauth.js';
import type { AdapterSettings, ConnectableAccount, PlatformAdapter, TokenSet } from '../types.js';
import { createYouTubeApi, type YouTubeChannel, type YouTubeUrls } from './api.js';
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

  const tokensFrom = (body: GoogleTokenResponse, previous: TokenSet | null) =>
    googleTokenSet(body, previous, YOUTUBE_ACCESS_TOKEN_SECONDS);

  return {
    name: 'YouTube',
    publishing: createYouTubePublishing(api, { unaudited: settings.unaudited === true }),

    authorizeUrl: ({ redirectUri, state, codeChallenge }) =>
      googleAuthorizeUrl(settings.urls.authorizeUrl, {
        clientId: settings.clientId,
        scopes: YOUTUBE_SCOPES,
        redirectUri,
        state,
        codeChallenge,
      }),

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
