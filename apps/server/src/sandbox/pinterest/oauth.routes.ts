import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.js';
import { type AuthorizeCheck, oauthSignIn, registerAuthorizeEndpoint } from '../kit/authorize.js';
import { authorizeParams, basicCredentials, type Params } from '../kit/consent.js';
import type { IssuedTokens, SandboxAccount, SandboxOAuth } from '../kit/oauth-state.js';
import {
  invalid,
  PINTEREST_EMULATOR,
  PINTEREST_KNOWN_SCOPES,
  pinterestError,
} from './responses.js';

/** www.pinterest.com/oauth/: the app's `client_id`, scopes a comma list, no PKCE. */
function checkAuthorize(p: Params, ctx: SandboxContext): AuthorizeCheck {
  if (p.client_id !== ctx.clientId)
    return {
      ok: false,
      page: 'Invalid client_id. Check the app id in the Pinterest developer portal.',
    };
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
  const unknown = scopes.filter((s) => !PINTEREST_KNOWN_SCOPES.has(s));
  if (!scopes.length || unknown.length)
    return fail('invalid_scope', `Invalid scope: ${unknown.join(',') || '(none)'}.`);
  return {
    ok: true,
    request: {
      clientId: p.client_id,
      redirectUri: p.redirect_uri ?? '',
      state: p.state,
      scopes,
      codeChallenge: null,
      codeChallengeMethod: null,
    },
  };
}

/**
 * Pinterest's consent page and `POST /v5/oauth/token` (docs/networks.md#pinterest-sandbox): the
 * app authenticates with Basic auth; every refresh answers a new continuous refresh token for 60
 * more days and the one it replaces stops working.
 */
export function registerPinterestOAuthRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
  signedIn: (account: SandboxAccount) => Promise<void>,
) {
  registerAuthorizeEndpoint(scope, ctx, oauthSignIn(oauth, signedIn), {
    network: 'Pinterest',
    path: '/oauth/',
    check: (p) => checkAuthorize(p, ctx),
    hidden: (r) => ({
      client_id: r.clientId,
      redirect_uri: r.redirectUri,
      response_type: 'code',
      scope: r.scopes.join(','),
      ...(r.state !== undefined ? { state: r.state } : {}),
    }),
    denied: (r) => ({ error: 'access_denied', state: r.state }),
    approved: (code, r) => ({ code, state: r.state }),
  });

  const lifetimes = {
    accessTtl: PINTEREST_EMULATOR.accessTokenSeconds,
    refreshTtl: PINTEREST_EMULATOR.refreshTokenSeconds,
    format: PINTEREST_EMULATOR.tokenFormat,
  };
  const tokenAnswer = (issued: IssuedTokens) => ({
    access_token: issued.accessToken,
    refresh_token: issued.refreshToken,
    response_type: 'authorization_code',
    token_type: 'bearer',
    expires_in: PINTEREST_EMULATOR.accessTokenSeconds,
    refresh_token_expires_in: PINTEREST_EMULATOR.refreshTokenSeconds,
    scope: issued.scopes.join(','),
  });
  const badClient = (reply: FastifyReply) =>
    reply.status(401).send({ code: 2, message: 'Authentication failed.', status: 'failure' });

  /** POST /v5/oauth/token (form, Basic auth): the code grant and the continuous refresh grant. */
  scope.post('/v5/oauth/token', async (request, reply) => {
    const basic = basicCredentials(request);
    if (!basic || basic.id !== ctx.clientId || basic.secret !== ctx.clientSecret)
      return badClient(reply);
    const f = authorizeParams(request);
    if (f.grant_type === 'authorization_code') {
      if (!f.code || !f.redirect_uri)
        return invalid(reply, 'Missing request body property: code, redirect_uri.');
      const redeemed = await oauth.redeemCode(f.code, PINTEREST_EMULATOR.codeMaxAgeSeconds);
      if (!redeemed.ok) return pinterestError(reply, 400, 1, 'Invalid authorization code.');
      const code = redeemed.code;
      if (code.clientId !== basic.id || code.redirectUri !== f.redirect_uri)
        return pinterestError(reply, 400, 1, 'Redirect uri does not match.');
      const issued = await oauth.issueGrant({
        accountId: code.accountId,
        clientId: code.clientId,
        scopes: code.scopes,
        ...lifetimes,
      });
      return tokenAnswer(issued);
    }
    if (f.grant_type === 'refresh_token') {
      if (!f.refresh_token) return invalid(reply, 'Missing request body property: refresh_token.');
      const redeemed = await oauth.redeemRefresh(f.refresh_token, ctx.clientId, lifetimes);
      if (!redeemed.ok) return pinterestError(reply, 400, 1, 'Invalid refresh token.');
      return { ...tokenAnswer(redeemed.issued), response_type: 'refresh_token' };
    }
    return invalid(reply, `Invalid grant_type: ${f.grant_type ?? ''}.`);
  });
}
