import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.js';
import type { AuthorizeCheck } from './authorize.js';
import { authorizeParams, type Params } from './consent.js';
import type { SandboxOAuth } from './oauth-state.js';
import { pkceMatches } from './secrets.js';

/**
 * Google's OAuth numbers and answers, shared by the emulators of Google's networks (YouTube,
 * Business Profile: one Google sign-in; docs/networks.md#youtube-sandbox).
 */
export const GOOGLE_EMULATOR = {
  accessTokenSeconds: 3599,
  codeMaxAgeSeconds: 600,
  tokenFormat: { accessPrefix: 'ya29.', refreshPrefix: '1//' },
} as const;

/** Google's OAuth endpoints answer `{error, error_description}`. */
export function oauthError(
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
) {
  return reply.status(status).send({ error, error_description: description });
}

/** accounts.google.com/o/oauth2/v2/auth: a web client, scopes space-separated, PKCE optional. */
export function checkGoogleAuthorize(
  p: Params,
  ctx: SandboxContext,
  knownScopes: ReadonlySet<string>,
): AuthorizeCheck {
  if (p.client_id !== ctx.clientId)
    return {
      ok: false,
      page: 'Access blocked: Authorization Error. The OAuth client was not found. Error 401: invalid_client',
    };
  const fail = (error: string, description: string): AuthorizeCheck => ({
    ok: false,
    redirectUri: p.redirect_uri!,
    error: { error, error_description: description, state: p.state },
  });
  if (p.response_type !== 'code')
    return fail('unsupported_response_type', 'response_type must be code.');
  const scopes = (p.scope ?? '').split(/\s+/).filter(Boolean);
  const unknown = scopes.filter((s) => !knownScopes.has(s));
  if (!scopes.length || unknown.length)
    return fail(
      'invalid_scope',
      `Some requested scopes were invalid: ${unknown.join(' ') || '(none)'}`,
    );
  const codeChallenge = p.code_challenge ?? null;
  if (codeChallenge && p.code_challenge_method !== 'S256')
    return fail('invalid_request', 'Invalid code_challenge_method.');
  return {
    ok: true,
    request: {
      clientId: p.client_id,
      redirectUri: p.redirect_uri ?? '',
      state: p.state,
      scopes,
      codeChallenge,
      codeChallengeMethod: codeChallenge ? 'S256' : null,
    },
  };
}

/**
 * POST oauth2.googleapis.com/token (the code grant and the refresh grant) and /revoke, as every
 * Google emulator answers them: Google's refresh tokens do not rotate, a refused one is
 * `invalid_grant`.
 */
export function registerGoogleTokenEndpoints(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
) {
  const lifetimes = {
    accessTtl: GOOGLE_EMULATOR.accessTokenSeconds,
    format: GOOGLE_EMULATOR.tokenFormat,
  };

  /** POST oauth2.googleapis.com/token (form): the code grant and the refresh grant. */
  scope.post('/token', async (request, reply) => {
    const f = authorizeParams(request);
    if (f.client_id !== ctx.clientId || f.client_secret !== ctx.clientSecret)
      return oauthError(reply, 401, 'invalid_client', 'Unauthorized');
    if (f.grant_type === 'authorization_code') {
      if (!f.code)
        return oauthError(reply, 400, 'invalid_request', 'Missing required parameter: code');
      const redeemed = await oauth.redeemCode(f.code, GOOGLE_EMULATOR.codeMaxAgeSeconds);
      if (!redeemed.ok) return oauthError(reply, 400, 'invalid_grant', 'Malformed auth code.');
      const code = redeemed.code;
      if (code.redirectUri !== f.redirect_uri)
        return oauthError(reply, 400, 'redirect_uri_mismatch', 'Bad Request');
      if (!pkceMatches(code, f.code_verifier))
        return oauthError(reply, 400, 'invalid_grant', 'Invalid code verifier.');
      const issued = await oauth.issueGrant({
        accountId: code.accountId,
        clientId: code.clientId,
        scopes: code.scopes,
        refreshTtl: null,
        ...lifetimes,
      });
      return {
        access_token: issued.accessToken,
        expires_in: GOOGLE_EMULATOR.accessTokenSeconds,
        refresh_token: issued.refreshToken,
        scope: issued.scopes.join(' '),
        token_type: 'Bearer',
      };
    }
    if (f.grant_type === 'refresh_token') {
      const check = await oauth.checkRefresh(f.refresh_token ?? '', ctx.clientId);
      if (!check.ok)
        return oauthError(reply, 400, 'invalid_grant', 'Token has been expired or revoked.');
      // Google keeps the refresh token: only a new access token comes back.
      const issued = await oauth.rotate(check.grant.id, { ...lifetimes, refreshTtl: false });
      return {
        access_token: issued.accessToken,
        expires_in: GOOGLE_EMULATOR.accessTokenSeconds,
        scope: issued.scopes.join(' '),
        token_type: 'Bearer',
      };
    }
    return oauthError(
      reply,
      400,
      'unsupported_grant_type',
      'Invalid grant_type: ' + (f.grant_type ?? ''),
    );
  });

  /** POST oauth2.googleapis.com/revoke (form `token`): ends the grant the token belongs to. */
  scope.post('/revoke', async (request, reply) => {
    const f = authorizeParams(request);
    const q = request.query as Params;
    const token = f.token ?? q.token;
    if (!token)
      return oauthError(reply, 400, 'invalid_request', 'Missing required parameter: token');
    await oauth.revoke(token);
    return reply.status(200).send({});
  });
}
