import type { CreatePinterestBoard, PinterestBoard as Board } from '@herald/contract';
import { PlatformError } from '../errors.js';
import { expiresIn, tokenSetFromOAuth } from '../oauth.js';
import type { AdapterSettings, PlatformAdapter, StoredAccount, TokenSet } from '../types.js';
import {
  createPinterestApi,
  type PinterestBoard,
  type PinterestTokenResponse,
  type PinterestUrls,
} from './api.js';
import {
  PINTEREST_ACCESS_TOKEN_SECONDS,
  PINTEREST_REFRESH_TOKEN_SECONDS,
  PINTEREST_SCOPES,
} from './limits.js';
import { createPinterestPublishing } from './publishing.js';

/** A board as the composer shows it. */
export const boardOf = (b: PinterestBoard): Board => ({
  id: b.id,
  name: b.name,
  privacy: b.privacy ?? 'PUBLIC',
  pinCount: typeof b.pin_count === 'number' ? b.pin_count : null,
});

/**
 * Pinterest OAuth (docs/networks.md#pinterest-oauth): the authorization code, exchanged with the
 * app's id and secret in Basic auth. Refresh tokens are continuous: each refresh answers a new
 * refresh token good for 60 more days, which replaces the stored one (the old one is not relied
 * on). One sign-in is one Pinterest account, read from `GET /v5/user_account`.
 */
export function createPinterestAdapter(settings: AdapterSettings<PinterestUrls>): PlatformAdapter {
  const api = createPinterestApi(settings);

  function tokensFrom(body: PinterestTokenResponse, previous: TokenSet | null): TokenSet {
    const tokens = tokenSetFromOAuth({ ...body }, previous?.refreshToken ?? null);
    return {
      ...tokens,
      accessTokenExpiresAt:
        tokens.accessTokenExpiresAt ?? expiresIn(PINTEREST_ACCESS_TOKEN_SECONDS),
      refreshTokenExpiresAt:
        tokens.refreshTokenExpiresAt ?? expiresIn(PINTEREST_REFRESH_TOKEN_SECONDS),
      scopes: tokens.scopes.length ? tokens.scopes : (previous?.scopes ?? []),
    };
  }

  const token = (account: StoredAccount) => account.tokens.accessToken;

  return {
    name: 'Pinterest',
    publishing: createPinterestPublishing(api),

    authorizeUrl({ redirectUri, state }) {
      const query = new URLSearchParams({
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: PINTEREST_SCOPES.join(','),
        state,
      });
      return `${settings.urls.authorizeUrl}?${query.toString()}`;
    },

    async connect({ code, redirectUri }) {
      const body = await api.exchangeCode({ code, redirectUri });
      const me = await api.userAccount(body.access_token);
      const externalId = me.id ?? me.username;
      if (!externalId)
        throw new PlatformError('transient', 'Pinterest did not say which account signed in.');
      return [
        {
          externalId,
          username: me.username ?? null,
          name: me.business_name || me.username || null,
          pictureUrl: me.profile_image ?? null,
          tokens: tokensFrom(body, null),
          extra: { accountType: me.account_type ?? null },
        },
      ];
    },

    async refresh(account) {
      if (!account.tokens.refreshToken)
        throw new PlatformError(
          'reauth',
          'Pinterest gave Herald no refresh token for this account. Reconnect it.',
        );
      return tokensFrom(await api.refresh(account.tokens.refreshToken), account.tokens);
    },

    async boards(account) {
      return (await api.boards(token(account))).map(boardOf);
    },

    async createBoard(account, input: CreatePinterestBoard) {
      return boardOf(
        await api.createBoard(token(account), {
          name: input.name,
          ...(input.description ? { description: input.description } : {}),
          privacy: input.privacy,
        }),
      );
    },
  };
}
