import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import {
  type AuthorizeCheck,
  type ConsentSignIn,
  oauthSignIn,
  registerAuthorizeEndpoint,
} from '../kit/authorize.js';
import { authorizeParams, basicCredentials, type Params } from '../kit/consent.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { pkceMatches } from '../kit/secrets.js';
import { X_EMULATOR, X_KNOWN_SCOPES, xOAuthError } from './responses.js';

/** The authorize parameters as X checks them (docs/networks.md#x-oauth): PKCE and state are mandatory. */
function checkAuthorize(p: Params, ctx: SandboxContext): AuthorizeCheck {
  if (p.client_id !== ctx.clientId)
    return {
      ok: false,
      page: 'Something went wrong. You weren’t able to give access to the App. Go back and try logging in again.',
    };
  const fail = (error: string, description: string) => ({
    ok: false as const,
    redirectUri: p.redirect_uri!,
    error: { error, error_description: description, state: p.state },
  });
  if (p.response_type !== 'code')
    return fail('unsupported_response_type', 'response_type must be code.');
  if (!p.state || p.state.length > 500)
    return fail('invalid_request', 'state is required and may be at most 500 characters.');
  if (!p.code_challenge)
    return fail('invalid_request', 'Missing required parameter [code_challenge].');
  const method = p.code_challenge_method ?? 'plain';
  if (method !== 'S256' && method !== 'plain')
    return fail('invalid_request', 'code_challenge_method must be S256 or plain.');
  const scopes = (p.scope ?? '').split(/[ +]+/).filter(Boolean);
  const unknown = scopes.filter((s) => !X_KNOWN_SCOPES.has(s));
  if (!scopes.length || unknown.length)
    return fail('invalid_scope', `Unknown or missing scope: ${unknown.join(' ') || '(none)'}.`);
  return {
    ok: true,
    request: {
      clientId: p.client_id,
      redirectUri: p.redirect_uri!,
      state: p.state,
      scopes,
      codeChallenge: p.code_challenge,
      codeChallengeMethod: method,
    },
  };
}

/**
 * The sandbox user's X subscription, chosen on the consent page (the `premium` knob): Premium
 * subscribers may post 25,000 weighted characters, everyone else 280 (docs/networks.md#x-sandbox).
 * A select, not a checkbox, so a form filled from its inputs leaves the subscription as it was.
 */
const SUBSCRIPTION_FIELD = `
<label for="subscription">X subscription of this user</label>
<select id="subscription" name="subscription" style="width:100%;padding:.5rem;border:1px solid #64748b;border-radius:.5rem;font-size:1rem">
<option value="">As before (none for a new user)</option>
<option value="None">None: posts up to 280 characters</option>
<option value="Premium">X Premium: long posts, up to 25,000 characters</option>
</select>`;

/** Signs in as SandboxOAuth does, and records the subscription the consent page chose. */
const xSignIn = (oauth: SandboxOAuth): ConsentSignIn =>
  oauthSignIn(oauth, async (account, form) => {
    const choice = form.subscription;
    if (choice === 'Premium' || choice === 'None')
      await oauth.scenarios.set(account.id, 'premium', choice === 'Premium');
  });

export function registerXOAuthRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
) {
  registerAuthorizeEndpoint(scope, ctx, xSignIn(oauth), {
    network: 'X',
    path: '/i/oauth2/authorize',
    check: (p) => checkAuthorize(p, ctx),
    hidden: (r) => ({
      response_type: 'code',
      client_id: r.clientId,
      redirect_uri: r.redirectUri,
      scope: r.scopes.join(' '),
      state: r.state ?? '',
      code_challenge: r.codeChallenge ?? '',
      code_challenge_method: r.codeChallengeMethod ?? '',
    }),
    denied: (r) => ({ error: 'access_denied', state: r.state }),
    approved: (code, r) => ({ state: r.state, code }),
    extraFields: async () => SUBSCRIPTION_FIELD,
  });

  /** Herald is a confidential client: X wants its credentials in a Basic header. */
  function clientOf(request: FastifyRequest) {
    const basic = basicCredentials(request);
    return basic && basic.id === ctx.clientId && basic.secret === ctx.clientSecret
      ? basic.id
      : null;
  }

  async function tokenAnswer(issued: {
    accessToken: string;
    refreshToken: string | null;
    scopes: string[];
  }) {
    return {
      token_type: 'bearer',
      expires_in: X_EMULATOR.accessTokenSeconds,
      access_token: issued.accessToken,
      scope: issued.scopes.join(' '),
      ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
    };
  }

  scope.post('/2/oauth2/token', async (request, reply) => {
    const clientId = clientOf(request);
    if (!clientId)
      return xOAuthError(reply, 401, 'unauthorized_client', 'Missing valid authorization header');
    const body = authorizeParams(request);

    if (body.grant_type === 'authorization_code') {
      for (const field of ['code', 'redirect_uri', 'code_verifier'] as const)
        if (!body[field])
          return xOAuthError(
            reply,
            400,
            'invalid_request',
            `Missing required parameter [${field}].`,
          );
      const redeemed = await oauth.redeemCode(body.code!, X_EMULATOR.codeMaxAgeSeconds);
      if (!redeemed.ok)
        return xOAuthError(
          reply,
          400,
          'invalid_request',
          'Value passed for the authorization code was invalid.',
        );
      const code = redeemed.code;
      if (code.clientId !== clientId || code.redirectUri !== body.redirect_uri)
        return xOAuthError(
          reply,
          400,
          'invalid_grant',
          'Value passed for the redirect uri did not match the uri of the authorization code.',
        );
      if (!pkceMatches(code, body.code_verifier))
        return xOAuthError(
          reply,
          400,
          'invalid_grant',
          'Value passed for the code verifier did not match the code challenge.',
        );
      const issued = await oauth.issueGrant({
        accountId: code.accountId,
        clientId,
        scopes: code.scopes,
        accessTtl: X_EMULATOR.accessTokenSeconds,
        // Only offline.access earns a refresh token (docs/networks.md#x-oauth); X sets no fixed lifetime on it.
        refreshTtl: code.scopes.includes('offline.access') ? null : false,
      });
      return tokenAnswer(issued);
    }

    if (body.grant_type === 'refresh_token') {
      if (!body.refresh_token)
        return xOAuthError(
          reply,
          400,
          'invalid_request',
          'Missing required parameter [refresh_token].',
        );
      // A used (rotated) refresh token is refused like an unknown one.
      const redeemed = await oauth.redeemRefresh(body.refresh_token, clientId, {
        accessTtl: X_EMULATOR.accessTokenSeconds,
        refreshTtl: null,
      });
      if (!redeemed.ok)
        return xOAuthError(
          reply,
          400,
          'invalid_request',
          'Value passed for the token was invalid.',
        );
      return tokenAnswer(redeemed.issued);
    }
    return xOAuthError(
      reply,
      400,
      'unsupported_grant_type',
      'Value passed for the grant type was invalid.',
    );
  });

  scope.post('/2/oauth2/revoke', async (request, reply) => {
    if (!clientOf(request))
      return xOAuthError(reply, 401, 'unauthorized_client', 'Missing valid authorization header');
    const token = authorizeParams(request).token;
    if (!token)
      return xOAuthError(reply, 400, 'invalid_request', 'Missing required parameter [token].');
    // RFC 7009: revoking an unknown or dead token is not an error.
    await oauth.revoke(token);
    return { revoked: true };
  });
}
