import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.js';
import { type AuthorizeCheck, oauthSignIn, registerAuthorizeEndpoint } from '../kit/authorize.js';
import { authorizeParams, type Params } from '../kit/consent.js';
import type { IssuedTokens, SandboxOAuth } from '../kit/oauth-state.js';
import { pkceMatches } from '../kit/secrets.js';
import { oauthError, TIKTOK_EMULATOR, TIKTOK_KNOWN_SCOPES } from './responses.js';

/** www.tiktok.com/v2/auth/authorize/ (docs/networks.md#tiktok-oauth): the client is `client_key`, scopes a comma list. */
function checkAuthorize(p: Params, ctx: SandboxContext): AuthorizeCheck {
  if (p.client_key !== ctx.clientId)
    return { ok: false, page: 'Something went wrong. Please try again later. (client_key)' };
  const fail = (error: string, description: string): AuthorizeCheck => ({
    ok: false,
    redirectUri: p.redirect_uri!,
    error: { error, error_description: description, state: p.state },
  });
  if (p.response_type !== 'code') return fail('invalid_request', 'response_type must be code.');
  const scopes = (p.scope ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !TIKTOK_KNOWN_SCOPES.has(s));
  if (!scopes.length || unknown.length)
    return fail('invalid_scope', `The scope is invalid: ${unknown.join(',') || '(none)'}.`);
  const codeChallenge = p.code_challenge ?? null;
  return {
    ok: true,
    request: {
      clientId: p.client_key,
      redirectUri: p.redirect_uri ?? '',
      state: p.state,
      scopes,
      // Desktop and mobile clients send PKCE; the web flow Herald uses does not (docs/networks.md#tiktok-oauth).
      codeChallenge,
      codeChallengeMethod: codeChallenge ? 'S256' : null,
    },
  };
}

export function registerTikTokOAuthRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
) {
  registerAuthorizeEndpoint(scope, ctx, oauthSignIn(oauth), {
    network: 'TikTok',
    path: '/v2/auth/authorize/',
    check: (p) => checkAuthorize(p, ctx),
    hidden: (r) => ({
      client_key: r.clientId,
      scope: r.scopes.join(','),
      redirect_uri: r.redirectUri,
      response_type: 'code',
      ...(r.state !== undefined ? { state: r.state } : {}),
      ...(r.codeChallenge
        ? { code_challenge: r.codeChallenge, code_challenge_method: 'S256' }
        : {}),
    }),
    denied: (r) => ({
      error: 'access_denied',
      error_description: 'The user denied the request.',
      state: r.state,
    }),
    approved: (code, r) => ({ code, scopes: r.scopes.join(','), state: r.state }),
  });

  const tokenAnswer = (issued: IssuedTokens) => ({
    open_id: issued.account.id,
    scope: issued.scopes.join(','),
    access_token: issued.accessToken,
    expires_in: TIKTOK_EMULATOR.accessTokenSeconds,
    refresh_token: issued.refreshToken,
    refresh_expires_in: TIKTOK_EMULATOR.refreshTokenSeconds,
    token_type: 'Bearer',
  });
  const lifetimes = {
    accessTtl: TIKTOK_EMULATOR.accessTokenSeconds,
    refreshTtl: TIKTOK_EMULATOR.refreshTokenSeconds,
    format: TIKTOK_EMULATOR.tokenFormat,
  };
  const clientOk = (f: Record<string, string | undefined>) =>
    f.client_key === ctx.clientId && f.client_secret === ctx.clientSecret;
  const badClient = (reply: FastifyReply) =>
    oauthError(reply, 401, 'invalid_client', 'Client key or client secret is invalid.');

  /** POST /v2/oauth/token/ (form): the code grant and the rotating refresh grant. */
  scope.post('/v2/oauth/token/', async (request, reply) => {
    const f = authorizeParams(request);
    if (!clientOk(f)) return badClient(reply);

    if (f.grant_type === 'authorization_code') {
      if (!f.code || !f.redirect_uri)
        return oauthError(
          reply,
          400,
          'invalid_request',
          'Both code and redirect_uri are required.',
        );
      const redeemed = await oauth.redeemCode(f.code, TIKTOK_EMULATOR.codeMaxAgeSeconds);
      if (!redeemed.ok)
        return oauthError(
          reply,
          400,
          'invalid_grant',
          redeemed.reason === 'invalid'
            ? 'Authorization code is invalid.'
            : `Authorization code is ${redeemed.reason}.`,
        );
      const code = redeemed.code;
      if (code.clientId !== f.client_key || code.redirectUri !== f.redirect_uri)
        return oauthError(
          reply,
          400,
          'invalid_grant',
          'redirect_uri does not match the one used to authorize.',
        );
      if (!pkceMatches(code, f.code_verifier))
        return oauthError(
          reply,
          400,
          'invalid_grant',
          'code_verifier does not match the code_challenge.',
        );
      const issued = await oauth.issueGrant({
        accountId: code.accountId,
        clientId: code.clientId,
        scopes: code.scopes,
        ...lifetimes,
      });
      return tokenAnswer(issued);
    }

    if (f.grant_type === 'refresh_token') {
      if (!f.refresh_token)
        return oauthError(reply, 400, 'invalid_request', 'refresh_token is required.');
      const redeemed = await oauth.redeemRefresh(f.refresh_token, ctx.clientId, lifetimes);
      if (!redeemed.ok)
        return oauthError(reply, 400, 'invalid_grant', 'Refresh token is invalid or expired.');
      return tokenAnswer(redeemed.issued);
    }
    return oauthError(reply, 400, 'unsupported_grant_type', 'grant_type is not supported.');
  });

  /** POST /v2/oauth/revoke/ (form): ends the authorization the token belongs to. */
  scope.post('/v2/oauth/revoke/', async (request, reply) => {
    const f = authorizeParams(request);
    if (!clientOk(f)) return badClient(reply);
    if (!f.token) return oauthError(reply, 400, 'invalid_request', 'token is required.');
    await oauth.revoke(f.token);
    return reply.status(200).send();
  });
}
