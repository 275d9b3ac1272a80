import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerAuthorizeEndpoint } from '../kit/authorize.js';
import { checkGoogleAuthorize, registerGoogleTokenEndpoints } from '../kit/google-oauth.js';
import { escapeHtml, splitList } from '../kit/html.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { CONNECTED_ELSEWHERE } from '../kit/tenant.js';
import type { Businesses } from './businesses.js';
import { KNOWN_SCOPES } from './google.js';

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
      check: (p) => checkGoogleAuthorize(p, ctx, KNOWN_SCOPES),
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

  registerGoogleTokenEndpoints(scope, ctx, oauth);
}
