import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.js';
import { type AuthorizeCheck, oauthSignIn, registerAuthorizeEndpoint } from '../kit/authorize.js';
import type { Params } from '../kit/consent.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import {
  fieldsOf,
  graphError,
  invalidToken,
  THREADS_EMULATOR,
  THREADS_KNOWN_SCOPES,
} from './responses.js';

/** threads.com/oauth/authorize (docs/networks.md#threads-oauth): no PKCE; scopes are a comma list. */
function checkAuthorize(p: Params, ctx: SandboxContext): AuthorizeCheck {
  if (p.client_id !== ctx.clientId)
    return {
      ok: false,
      page: 'Invalid App ID: The provided app ID does not look like a valid app ID.',
    };
  const fail = (description: string): AuthorizeCheck => ({
    ok: false,
    redirectUri: p.redirect_uri!,
    error: {
      error: 'invalid_request',
      error_reason: 'invalid_request',
      error_description: description,
      state: p.state,
    },
  });
  if (p.response_type !== 'code') return fail('response_type must be code.');
  const scopes = (p.scope ?? '').split(/[,\s]+/).filter(Boolean);
  const unknown = scopes.filter((s) => !THREADS_KNOWN_SCOPES.has(s));
  if (unknown.length) return fail(`Invalid Scopes: ${unknown.join(', ')}.`);
  if (!scopes.includes('threads_basic')) return fail('The threads_basic permission is required.');
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

export function registerThreadsOAuthRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
) {
  registerAuthorizeEndpoint(scope, ctx, oauthSignIn(oauth), {
    network: 'Threads',
    path: '/oauth/authorize',
    check: (p) => checkAuthorize(p, ctx),
    hidden: (r) => ({
      client_id: r.clientId,
      redirect_uri: r.redirectUri,
      scope: r.scopes.join(','),
      response_type: 'code',
      ...(r.state !== undefined ? { state: r.state } : {}),
    }),
    denied: (r) => ({
      error: 'access_denied',
      error_reason: 'user_denied',
      error_description: 'Permissions error',
      state: r.state,
    }),
    approved: (code, r) => ({ code, state: r.state }),
  });

  const badClient = (reply: FastifyReply, what: 'application' | 'secret') =>
    graphError(reply, 400, {
      message:
        what === 'secret'
          ? 'Error validating client secret.'
          : 'Error validating application. Invalid application ID.',
      code: 101,
    });

  /** Code → short-lived token `{access_token, user_id}` (query or form fields). */
  scope.post('/oauth/access_token', async (request, reply) => {
    const f = fieldsOf(request.query, request.body);
    if (f.client_id !== ctx.clientId) return badClient(reply, 'application');
    if (f.client_secret !== ctx.clientSecret) return badClient(reply, 'secret');
    if (f.grant_type !== 'authorization_code')
      return graphError(reply, 400, { message: 'Unsupported grant_type.', code: 100 });
    if (!f.code || !f.redirect_uri)
      return graphError(reply, 400, {
        message: 'Missing code or redirect_uri parameter.',
        code: 100,
      });
    const redeemed = await oauth.redeemCode(f.code, THREADS_EMULATOR.codeMaxAgeSeconds);
    if (!redeemed.ok) {
      const [message, subcode] =
        redeemed.reason === 'used'
          ? ['This authorization code has been used.', 36009]
          : redeemed.reason === 'expired'
            ? ['This authorization code has expired.', 36007]
            : ['Invalid verification code format.', undefined];
      return graphError(reply, 400, {
        message,
        code: 100,
        ...(subcode ? { error_subcode: subcode } : {}),
      });
    }
    const code = redeemed.code;
    if (code.redirectUri !== f.redirect_uri || code.clientId !== f.client_id)
      return graphError(reply, 400, {
        message:
          'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        code: 100,
        error_subcode: 36008,
      });
    const issued = await oauth.issueGrant({
      accountId: code.accountId,
      clientId: code.clientId,
      scopes: code.scopes,
      accessTtl: THREADS_EMULATOR.shortTokenSeconds,
      refreshTtl: false,
      format: THREADS_EMULATOR.tokenFormat,
    });
    return { access_token: issued.accessToken, user_id: Number(issued.account.id) };
  });

  const longLived = (accessToken: string) => ({
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: THREADS_EMULATOR.longTokenSeconds,
  });

  /** Short-lived → long-lived (`th_exchange_token`). */
  scope.get('/access_token', async (request, reply) => {
    const f = fieldsOf(request.query, null);
    if (f.grant_type !== 'th_exchange_token')
      return graphError(reply, 400, { message: 'Unsupported grant_type.', code: 100 });
    if (f.client_secret !== ctx.clientSecret) return badClient(reply, 'secret');
    const check = await oauth.verifyAccess(f.access_token);
    if (!check.ok) return invalidToken(reply, check.reason);
    const issued = await oauth.rotate(check.grantId, {
      accessTtl: THREADS_EMULATOR.longTokenSeconds,
      refreshTtl: false,
      format: THREADS_EMULATOR.tokenFormat,
    });
    return longLived(issued.accessToken);
  });

  /** A long-lived token ≥ 24 h old → a new one valid 60 days (`th_refresh_token`). */
  scope.get('/refresh_access_token', async (request, reply) => {
    const f = fieldsOf(request.query, null);
    if (f.grant_type !== 'th_refresh_token')
      return graphError(reply, 400, { message: 'Unsupported grant_type.', code: 100 });
    const check = await oauth.verifyAccess(f.access_token);
    if (!check.ok) return invalidToken(reply, check.reason);
    if ((await oauth.scenarios.read([check.account.id])).isOn('refresh_fails'))
      return graphError(reply, 400, {
        message:
          'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
        code: 190,
        error_subcode: 460,
      });
    const ageSeconds = ((await oauth.now()) - check.createdAt) / 1000;
    if (ageSeconds < THREADS_EMULATOR.refreshMinAgeSeconds)
      return graphError(reply, 400, {
        message: 'The access token can only be refreshed once it is at least 24 hours old.',
        code: 100,
      });
    const issued = await oauth.rotate(check.grantId, {
      accessTtl: THREADS_EMULATOR.longTokenSeconds,
      refreshTtl: false,
      format: THREADS_EMULATOR.tokenFormat,
    });
    return longLived(issued.accessToken);
  });
}
