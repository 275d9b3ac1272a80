import { PlatformError } from '../errors.js';
import { expiresIn, tokenSetFromOAuth } from '../oauth.js';
import type { AdapterSettings, ConnectableAccount, PlatformAdapter, TokenSet } from '../types.js';
import { createXApi, type XTokenResponse, type XUrls, type XUser } from './api.js';
import { X_ACCESS_TOKEN_SECONDS, X_SCOPES, xTextLimitOf } from './limits.js';
import { createXPublishing, type XPublishOptions } from './publishing.js';

/**
 * X through OAuth 2.0 Authorization Code with PKCE (S256), as a confidential client
 * (docs/networks.md#x-oauth). Refresh tokens rotate: every refresh returns the one to keep.
 */
export function createXAdapter(
  settings: AdapterSettings<XUrls>,
  options: Partial<XPublishOptions> = {},
): PlatformAdapter {
  const api = createXApi(settings);

  function tokensFrom(body: XTokenResponse, previous: TokenSet | null): TokenSet {
    const tokens = tokenSetFromOAuth({ ...body }, previous?.refreshToken ?? null);
    return {
      ...tokens,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt ?? expiresIn(X_ACCESS_TOKEN_SECONDS),
      scopes: tokens.scopes.length ? tokens.scopes : (previous?.scopes ?? []),
    };
  }

  const toAccount = (user: XUser, tokens: TokenSet): ConnectableAccount => ({
    externalId: user.id,
    username: user.username ?? null,
    name: user.name ?? null,
    pictureUrl: user.profile_image_url ?? null,
    tokens,
    // Premium subscribers may post up to 25,000 weighted characters (docs/networks.md#x-limits).
    textLimit: xTextLimitOf(user),
    extra: {
      // Permalinks are built from the username (docs/networks.md#x-publishing).
      username: user.username,
      name: user.name,
      ...(user.verified_type ? { verifiedType: user.verified_type } : {}),
      ...(user.subscription_type ? { subscriptionType: user.subscription_type } : {}),
    },
  });

  return {
    name: 'X',
    publishing: createXPublishing(settings, options),

    authorizeUrl({ redirectUri, state, codeChallenge }) {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        scope: X_SCOPES.join(' '),
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      });
      // X documents spaces in scope as %20; a literal + in any value is already %2B.
      return `${settings.urls.authorizeUrl}?${query.toString().replace(/\+/g, '%20')}`;
    },

    async connect(input) {
      const token = await api.exchangeCode(input);
      const user = await api.getMe(token.access_token);
      return [toAccount(user, tokensFrom(token, null))];
    },

    async refresh(account) {
      if (!account.tokens.refreshToken)
        throw new PlatformError(
          'reauth',
          'X gave Herald no refresh token for this account. Reconnect it to keep posting.',
        );
      const tokens = tokensFrom(await api.refresh(account.tokens.refreshToken), account.tokens);
      // A subscription can start or end between refreshes: one users/me call (75 per 15 min per
      // user) every two hours keeps the limit current. Failing it never loses the new tokens,
      // which X has already rotated.
      try {
        return { ...tokens, textLimit: xTextLimitOf(await api.getMe(tokens.accessToken)) };
      } catch {
        return tokens;
      }
    },

    async revoke(account) {
      // The refresh token first: it keeps the grant alive, the access token dies in 2 h anyway.
      if (account.tokens.refreshToken)
        await api.revoke(account.tokens.refreshToken, 'refresh_token');
      await api.revoke(account.tokens.accessToken, 'access_token');
    },
  };
}
