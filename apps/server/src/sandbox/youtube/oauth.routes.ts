import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerAuthorizeEndpoint } from '../kit/authorize.js';
import { checkGoogleAuthorize, registerGoogleTokenEndpoints } from '../kit/google-oauth.js';
import { escapeHtml, splitList } from '../kit/html.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { CONNECTED_ELSEWHERE } from '../kit/tenant.js';
import type { YouTubeChannels } from './channels.js';
import { GOOGLE_KNOWN_SCOPES } from './google.js';

/**
 * Google's consent page and token endpoint (docs/networks.md#youtube-sandbox): the person names
 * a Google account and the channels it owns besides its own (brand accounts); Google's refresh
 * tokens do not rotate, and a refused one answers `invalid_grant`.
 */
export function registerGoogleOAuthRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
  channels: YouTubeChannels,
) {
  registerAuthorizeEndpoint(
    scope,
    ctx,
    {
      knownAccounts: (signer) => oauth.accountNames(signer),
      async issueCode(form, r, signer) {
        const account = await oauth.signIn(form.account ?? '', signer);
        if (!account) return { page: CONNECTED_ELSEWHERE };
        // Herald connects channels, not the Google account: a channel another organization
        // connected keeps its Google account theirs.
        const owned = (await channels.of(account)).map((c) => c.id);
        if (owned.length && (await signer.connectedElsewhere(owned)))
          return { page: CONNECTED_ELSEWHERE };
        if (form.brand_channels !== undefined)
          await channels.setBrands(account, splitList(form.brand_channels));
        else await channels.ensure(account);
        return oauth.issueCode({
          accountId: account.id,
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
      check: (p) => checkGoogleAuthorize(p, ctx, GOOGLE_KNOWN_SCOPES),
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
        const brands = first ? (await channels.of(first)).slice(1).map((c) => c.title) : [];
        return `
<p>Herald asks to: ${escapeHtml(r.scopes.join(', '))}.</p>
<label for="brand_channels">Brand channels this Google account also manages (comma-separated; empty for none)</label>
<input id="brand_channels" name="brand_channels" type="text" value="${escapeHtml(brands.join(', '))}">`;
      },
    },
  );

  registerGoogleTokenEndpoints(scope, ctx, oauth);
}
