import { PlatformError } from '../errors.js';
import { googleAuthorizeUrl, googleTokenSet, type GoogleTokenResponse } from '../google-oauth.js';
import type { AdapterSettings, ConnectableAccount, PlatformAdapter, TokenSet } from '../types.js';
import { createGbpApi, type GbpLocation, type GbpUrls } from './api.js';
import { GBP_ACCESS_TOKEN_SECONDS, GBP_SCOPES } from './limits.js';
import { createGbpPublishing } from './publishing.js';
import { locationIdOf } from './location.js';

const addressOf = (l: GbpLocation) =>
  [l.storefrontAddress?.addressLines?.[0], l.storefrontAddress?.locality]
    .filter(Boolean)
    .join(', ') || null;

/**
 * Google OAuth for Google Business Profile (docs/networks.md#google-business-profile-oauth): PKCE,
 * `access_type=offline` and `prompt=consent` so that every sign-in returns a refresh token. An
 * agency's Google account manages many locations across several accounts (its own, location
 * groups, organizations): every location of every account is offered, and the person picks among
 * them as among Facebook Pages. Each chosen location is one connected account.
 */
export function createGbpAdapter(settings: AdapterSettings<GbpUrls>): PlatformAdapter {
  const api = createGbpApi(settings);

  const tokensFrom = (body: GoogleTokenResponse, previous: TokenSet | null) =>
    googleTokenSet(body, previous, GBP_ACCESS_TOKEN_SECONDS);

  return {
    name: 'Google Business Profile',
    publishing: createGbpPublishing(api),

    authorizeUrl: ({ redirectUri, state, codeChallenge }) =>
      googleAuthorizeUrl(settings.urls.authorizeUrl, {
        clientId: settings.clientId,
        scopes: GBP_SCOPES,
        redirectUri,
        state,
        codeChallenge,
      }),

    async connect({ code, redirectUri, codeVerifier }) {
      const body = await api.exchangeCode({ code, redirectUri, codeVerifier });
      const tokens = tokensFrom(body, null);
      const accounts = await api.accounts(body.access_token);
      const found: Array<{ accountName: string; location: GbpLocation }> = [];
      for (const account of accounts)
        for (const location of await api.locations(body.access_token, account.name))
          found.push({ accountName: account.name, location });
      if (found.length === 0)
        throw new PlatformError(
          'bad_request',
          'This Google account manages no Business Profile location. Create or claim the business on business.google.com, then connect again.',
        );
      // One grant serves every location of this sign-in: revoking it for one revokes it for all.
      const grantKey = `google:${found.map((f) => f.location.name).join(',')}`;
      return found.map(({ accountName, location }): ConnectableAccount => ({
        externalId: locationIdOf(location.name),
        // A location has no handle; its address is kept beside it, not shown as one.
        username: null,
        name: location.title ?? null,
        pictureUrl: null,
        tokens,
        extra: {
          address: addressOf(location),
          accountName,
          locationName: location.name,
          mapsUri: location.metadata?.mapsUri ?? null,
          newReviewUri: location.metadata?.newReviewUri ?? null,
        },
        // Posts and reviews work on verified locations only (hasVoiceOfMerchant).
        ...(location.metadata?.hasVoiceOfMerchant === false
          ? {
              unavailable:
                'Google has not verified this location yet: posts and reviews work only on verified locations.',
            }
          : {}),
        ...(found.length > 1 ? { grantKey } : {}),
      }));
    },

    async refresh(account) {
      if (!account.tokens.refreshToken)
        throw new PlatformError(
          'reauth',
          'Google gave Herald no refresh token for this Business Profile. Reconnect it.',
        );
      return tokensFrom(await api.refresh(account.tokens.refreshToken), account.tokens);
    },

    async revoke(account) {
      await api.revoke(account.tokens.refreshToken ?? account.tokens.accessToken);
    },
  };
}
