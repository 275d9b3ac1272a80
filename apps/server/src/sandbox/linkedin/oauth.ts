import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { type AuthorizeCheck, registerAuthorizeEndpoint } from '../kit/authorize.js';
import type { EmuKit } from '../kit/emu-kit.js';
import type { Params } from '../kit/consent.js';
import { CONNECTED_ELSEWHERE } from '../kit/tenant.js';
import { escapeHtml, splitList } from '../kit/html.js';
import { linkedInErrors, OAuthFailure } from './errors.js';
import {
  ACCESS_TOKEN_SECONDS,
  memberAccounts,
  memberKeys,
  roleOn,
  type LinkedInState,
} from './state.js';

/**
 * The products a LinkedIn developer app can have and the scopes each grants
 * (docs/networks.md#linkedin-oauth). The Community Management API must be the only product on
 * its app, so one app never grants member and organization scopes together.
 */
const MEMBER_PRODUCT_SCOPES = new Set([
  'openid',
  'profile',
  'email',
  'w_member_social',
  'r_member_social',
  'r_member_postAnalytics',
  'r_basicprofile',
]);
const COMMUNITY_MANAGEMENT_SCOPES = new Set([
  'r_organization_social',
  'w_organization_social',
  'rw_organization_admin',
  'r_organization_admin',
  // The Community Management API also grants these to its (only) app.
  'r_basicprofile',
  'r_member_postAnalytics',
]);

/**
 * The first scope the sandbox app cannot grant, if any. The app's product is the one of the first
 * scope asked for (the sandbox stands for whichever app Herald configured); a scope of the other
 * product is "not authorized for your application", as LinkedIn says when an app lacks it.
 */
export function unauthorizedScope(scopes: string[]): string | undefined {
  const first = scopes[0];
  if (!first) return undefined;
  const product =
    COMMUNITY_MANAGEMENT_SCOPES.has(first) && !MEMBER_PRODUCT_SCOPES.has(first)
      ? COMMUNITY_MANAGEMENT_SCOPES
      : MEMBER_PRODUCT_SCOPES;
  return scopes.find((s) => !product.has(s));
}

const DEFAULT_ORGANIZATIONS = 'Herald Sandbox Company';

const parseScopes = (scope: string | undefined) => [
  ...new Set((scope ?? '').split(/[\s,]+/).filter(Boolean)),
];

/** The authorize parameters as LinkedIn checks them (docs/networks.md#linkedin-oauth): client and redirect are shown, not redirected. */
function checkAuthorize(p: Params, ctx: SandboxContext): AuthorizeCheck {
  if (p.client_id !== ctx.clientId)
    return { ok: false, page: 'Invalid client: the passed in client_id is invalid.' };
  const fail = (error: string, description: string): AuthorizeCheck => ({
    ok: false,
    redirectUri: p.redirect_uri ?? '',
    error: { error, error_description: description, state: p.state ?? '' },
  });
  if (p.response_type !== 'code')
    return fail('unsupported_response_type', 'Only response_type=code is supported.');
  const refused = unauthorizedScope(parseScopes(p.scope));
  if (refused)
    return fail(
      'unauthorized_scope_error',
      `Scope "${refused}" is not authorized for your application`,
    );
  return {
    ok: true,
    request: {
      clientId: p.client_id,
      redirectUri: p.redirect_uri ?? '',
      state: p.state ?? '',
      scopes: parseScopes(p.scope),
      codeChallenge: null,
      codeChallengeMethod: null,
    },
  };
}

/** LinkedIn's authorization page, token endpoint (code and refresh grants) and revoke (docs/networks.md#linkedin-sandbox). */
export function registerLinkedInOAuth(
  scope: FastifyInstance,
  ctx: SandboxContext,
  kit: EmuKit,
  state: LinkedInState,
) {
  registerAuthorizeEndpoint(
    scope,
    ctx,
    {
      knownAccounts: async (signer) =>
        (await state.listMembers())
          .filter((m) => signer.owns(memberAccounts(m)))
          .map((m) => m.account),
      async issueCode(form, r, signer) {
        const account = (form.account ?? '').trim();
        if (!account) return { page: 'Name the member: type the sandbox member to sign in as.' };
        const organizations = splitList(form.organizations ?? DEFAULT_ORGANIZATIONS).slice(0, 50);
        const login = state.planLogin(account, organizations);
        const { member } = login;
        // Ids come from the names typed: the member's profile and Pages, before and as typed
        // now (a Page's name alone makes its id), must all be free of other organizations'.
        const before = await state.getMember(member.sub);
        const touched = [...memberAccounts(member), ...(before ? memberAccounts(before) : [])];
        if (await signer.connectedElsewhere(touched)) return { page: CONNECTED_ELSEWHERE };
        await state.saveLogin(login);
        await kit.signedIn(memberKeys(member), signer.organizationIds);
        return state.createCode({
          sub: member.sub,
          clientId: r.clientId,
          redirectUri: r.redirectUri,
          scopes: r.scopes,
        });
      },
    },
    {
      network: 'LinkedIn',
      path: '/oauth/v2/authorization',
      accountLabel: 'LinkedIn member name',
      check: (p) => checkAuthorize(p, ctx),
      hidden: (r) => ({
        response_type: 'code',
        client_id: r.clientId,
        redirect_uri: r.redirectUri,
        state: r.state ?? '',
        scope: r.scopes.join(' '),
      }),
      denied: (r) => ({
        error: 'access_denied',
        error_description: 'The member declined to authorize the application.',
        state: r.state ?? '',
      }),
      approved: (code, r) => ({ code, state: r.state ?? '' }),
      async extraFields(r, known) {
        const first = (await state.listMembers()).find((m) => m.account === known[0]);
        const firstOrgs = first
          ? (await Promise.all(first.orgIds.map((id) => state.getOrganization(id))))
              .map((o) => {
                const role = o ? roleOn(first, o.id) : null;
                return o && (role === 'ADMINISTRATOR' ? o.name : `${o.name} (${role})`);
              })
              .filter(Boolean)
              .join(', ')
          : DEFAULT_ORGANIZATIONS;
        return `
<p>Herald asks for: ${escapeHtml(r.scopes.join(', '))}.</p>
<label for="organizations">Organization pages this member has a role on (comma-separated; empty for none; a role in brackets, e.g. "Acme (CONTENT_ADMINISTRATOR)", ADMINISTRATOR when none)</label>
<input id="organizations" name="organizations" type="text" value="${escapeHtml(firstOrgs)}">`;
      },
    },
  );

  scope.post('/oauth/v2/accessToken', async (request, reply) => {
    const p = (request.body ?? {}) as Params;
    try {
      if (p.client_id !== ctx.clientId || p.client_secret !== ctx.clientSecret) {
        throw linkedInErrors.invalidClient();
      }
      if (p.grant_type === 'authorization_code') {
        const code = await state.takeCode(p.code ?? '', p.client_id, p.redirect_uri ?? '');
        const member = await state.getMember(code.sub);
        if (!member) throw linkedInErrors.badCode();
        // Refresh tokens only go to partner apps; the sandbox app is one unless told otherwise.
        const withRefresh = !(await kit.isOn('no_refresh_token', memberKeys(member)));
        const issued = await state.createGrant(member, code.scopes, withRefresh);
        return {
          access_token: issued.accessToken,
          expires_in: ACCESS_TOKEN_SECONDS,
          scope: code.scopes.join(','),
          ...(issued.refreshToken
            ? {
                refresh_token: issued.refreshToken,
                refresh_token_expires_in: Math.round(
                  (issued.grant.refreshExpiresAt! - Date.now()) / 1000,
                ),
              }
            : {}),
        };
      }
      if (p.grant_type === 'refresh_token') {
        const refreshed = await state.refresh(p.refresh_token ?? '');
        return {
          access_token: refreshed.accessToken,
          expires_in: ACCESS_TOKEN_SECONDS,
          refresh_token: p.refresh_token,
          refresh_token_expires_in: Math.round((refreshed.refreshExpiresAt - Date.now()) / 1000),
          scope: refreshed.grant.scopes.join(','),
        };
      }
      throw new OAuthFailure(400, 'unsupported_grant_type', 'The grant_type is not supported.');
    } catch (err) {
      if (err instanceof OAuthFailure) return err.send(reply);
      throw err;
    }
  });

  scope.post('/oauth/v2/revoke', async (request, reply) => {
    const p = (request.body ?? {}) as Params;
    if (p.client_id !== ctx.clientId || p.client_secret !== ctx.clientSecret) {
      return linkedInErrors.invalidClient().send(reply);
    }
    await state.revoke(p.token ?? '');
    return reply.status(200).send();
  });
}
