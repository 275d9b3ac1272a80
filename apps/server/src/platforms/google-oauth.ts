import { PlatformError } from './errors.js';
import { expiresIn, form, tokenSetFromOAuth } from './oauth.js';
import type { TokenSet } from './types.js';

/**
 * Google's OAuth 2.0 for web server apps, as every Google network signs in with it (YouTube,
 * Business Profile; docs/networks.md#youtube-oauth): PKCE, `access_type=offline` with
 * `prompt=consent` so every sign-in returns a refresh token, refresh tokens that do not rotate,
 * and revocation of the one grant behind every account of a sign-in.
 */
export interface GoogleTokenResponse {
  access_token: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  token_type?: string;
}

/** The consent page's address for one sign-in. */
export function googleAuthorizeUrl(
  authorizeUrl: string,
  input: {
    clientId: string;
    scopes: readonly string[];
    redirectUri: string;
    state: string;
    codeChallenge: string;
  },
): string {
  const query = new URLSearchParams({
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    response_type: 'code',
    scope: input.scopes.join(' '),
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    state: input.state,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
  });
  return `${authorizeUrl}?${query.toString()}`;
}

/**
 * Herald's tokens from Google's answer: an access token of `accessSeconds` when Google does not
 * say, the refresh token kept when a refresh answers none, the scopes kept when none are named.
 */
export function googleTokenSet(
  body: GoogleTokenResponse,
  previous: TokenSet | null,
  accessSeconds: number,
): TokenSet {
  const tokens = tokenSetFromOAuth({ ...body }, previous?.refreshToken ?? null);
  return {
    ...tokens,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt ?? expiresIn(accessSeconds),
    // Google says nothing of the refresh token's lifetime (7 days for apps in testing mode).
    refreshTokenExpiresAt: null,
    scopes: tokens.scopes.length ? tokens.scopes : (previous?.scopes ?? []),
  };
}

/** What Google's token and revocation endpoints are asked, for the network's own error words. */
export type GoogleTokenRequest = 'code' | 'refresh' | 'revoke';

const FORM = 'application/x-www-form-urlencoded';

/**
 * The code exchange, the refresh and the revocation, sent through the network's own `call`
 * (which reads Google's errors in that network's words).
 */
export function googleTokenCalls(
  settings: {
    clientId: string;
    clientSecret: string;
    urls: { tokenUrl: string; revokeUrl: string };
  },
  call: <T>(url: string, init: RequestInit, request: GoogleTokenRequest) => Promise<T>,
) {
  const client = { client_id: settings.clientId, client_secret: settings.clientSecret };

  async function token(fields: Record<string, string | undefined>, request: GoogleTokenRequest) {
    const body = await call<GoogleTokenResponse>(
      settings.urls.tokenUrl,
      { method: 'POST', headers: { 'content-type': FORM }, body: form({ ...client, ...fields }) },
      request,
    );
    if (typeof body?.access_token !== 'string')
      throw new PlatformError(
        'bad_request',
        'Google answered the token request without an access token.',
      );
    return body;
  }

  return {
    exchangeCode: (input: { code: string; redirectUri: string; codeVerifier: string }) =>
      token(
        {
          code: input.code,
          grant_type: 'authorization_code',
          redirect_uri: input.redirectUri,
          code_verifier: input.codeVerifier,
        },
        'code',
      ),

    refresh: (refreshToken: string) =>
      token({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'refresh'),

    async revoke(tokenValue: string) {
      await call<unknown>(
        settings.urls.revokeUrl,
        { method: 'POST', headers: { 'content-type': FORM }, body: form({ token: tokenValue }) },
        'revoke',
      );
    },
  };
}
