import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { type AuthorizeCheck, registerAuthorizeEndpoint } from '../kit/authorize.js';
import { authorizeParams, type Params } from '../kit/consent.js';
import { escapeHtml, splitList } from '../kit/html.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { pkceMatches } from '../kit/secrets.js';
import { CONNECTED_ELSEWHERE } from '../kit/tenant.js';
import { GOOGLE_EMULATOR, oauthError } from '../youtube/google.js';
import type { Businesses } from './businesses.js';
import { KNOWN_SCOPES } from './google.js';

/** accounts.google.com/o/oauth2/v2/auth: a web client, scopes space-separated, PKCE optional. */
function checkAuthorize(p: Params, ctx: SandboxContext): AuthorizeCheck {
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
  const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
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
 * Google's consent page and token endpoint for the Business Profile emulator: the person names a
 * Google account, the locations its own Business Profile account holds and those of a location
 * group it also manages. Google's refresh tokens do not rotate; a refused one is `invalid_grant`.
 */
export function registerGbpOAuthRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
  businesses: Businesses,
) {
  registerAuthorizeEndpoint(
    scope,
    ctx,
    {
      knownAccounts: (signer) => oauth.accountNames(signer),
      async issueCode(form, r, signer) {
        const user = await oauth.signIn(form.account ?? '', signer);
        if (!user) return { page: CONNECTED_ELSEWHERE };
        // Herald connects locations: one another organization connected keeps its Google account theirs.
        const held = (await businesses.of(user)).flatMap((a) => a.locations.map((l) => l.id));
        if (held.length && (await signer.connectedElsewhere(held)))
          return { page: CONNECTED_ELSEWHERE };
        const existing = await businesses.of(user);
        const own =
          form.locations !== undefined
            ? splitList(form.locations)
            : (existing
                .find((a) => a.type === 'PERSONAL')
                ?.locations.map((l) => l.title + (l.verified ? '' : ' (unverified)')) ?? []);
        const group =
          form.group_locations !== undefined
            ? splitList(form.group_locations)
            : (existing
                .find((a) => a.type === 'LOCATION_GROUP')
                ?.locations.map((l) => l.title + (l.verified ? '' : ' (unverified)')) ?? []);
        await businesses.set(user, own, group);
        return oauth.issueCode({
          accountId: user.id,
          clientId: r.clientId,
          redirectUri: r.redirectUri,
          scopes: r.scopes,
          codeChallenge: r.codeChallenge,
          codeChallengeMethod: r.codeChallengeMethod,
        });
      },
    },
    {
      network: 'Google',
      path: '/o/oauth2/v2/auth',
      accountLabel: 'Google account name',
      check: (p) => checkAuthorize(p, ctx),
      hidden: (r) => ({
        client_id: r.clientId,
        redirect_uri: r.redirectUri,
        response_type: 'code',
        scope: r.scopes.join(' '),
        ...(r.state !== undefined ? { state: r.state } : {}),
        ...(r.codeChallenge
          ? { code_challenge: r.codeChallenge, code_challenge_method: 'S256' }
          : {}),
      }),
      denied: (r) => ({ error: 'access_denied', state: r.state }),
      approved: (code, r) => ({ code, scope: r.scopes.join(' '), state: r.state }),
      async extraFields(r, known) {
        const first = known[0] ? await oauth.findAccount(known[0]) : null;
        const accounts = first ? await businesses.of(first) : [];
        const titles = (type: string) =>
          accounts
            .find((a) => a.type === type)
            ?.locations.map((l) => l.title + (l.verified ? '' : ' (unverified)'))
            .join(', ') ?? '';
        return `
<p>Herald asks to: ${escapeHtml(r.scopes.join(', '))}.</p>
<label for="locations">Locations of this Google account's Business Profile (comma-separated; empty: one named after the account; end a name with "(unverified)" for a location Google has not verified)</label>
<input id="locations" name="locations" type="text" value="${escapeHtml(titles('PERSONAL'))}">
<label for="group_locations">Locations of a location group it also manages (comma-separated; empty for none)</label>
<input id="group_locations" name="group_locations" type="text" value="${escapeHtml(titles('LOCATION_GROUP'))}">`;
      },
    },
  );

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
