import type { FastifyInstance, FastifyReply } from 'fastify';
import { renderSandboxAuthorizePage } from '../kit/authorize-page.js';
import type { SandboxContext } from '../context.js';
import type { EmuKit } from '../kit/emu-kit.js';
import { isHeraldCallback } from '../kit/consent.js';
import { escapeHtml, splitList } from '../kit/html.js';
import { linkedInErrors, OAuthFailure } from './errors.js';
import { ACCESS_TOKEN_SECONDS, memberKeys, type LinkedInState } from './state.js';

type Params = Record<string, string | undefined>;

/** Scopes the emulated app may ask for (§6.1). */
const KNOWN_SCOPES = new Set([
  'openid',
  'profile',
  'email',
  'w_member_social',
  'r_member_social',
  'r_member_postAnalytics',
  'r_basicprofile',
  'r_organization_social',
  'w_organization_social',
  'rw_organization_admin',
  'r_organization_admin',
]);

const DEFAULT_ORGANIZATIONS = 'Herald Sandbox Company';

const parseScopes = (scope: string | undefined) => [
  ...new Set((scope ?? '').split(/[\s,]+/).filter(Boolean)),
];

const errorPage = (reply: FastifyReply, title: string, detail: string) =>
  reply
    .status(400)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></body></html>`,
    );

/** LinkedIn's authorization page, token endpoint (code and refresh grants) and revoke (§7.5). */
export function registerLinkedInOAuth(
  scope: FastifyInstance,
  ctx: SandboxContext,
  kit: EmuKit,
  state: LinkedInState,
) {
  /** Client and redirect problems are shown, not redirected (the redirect is not trusted yet). */
  function clientProblem(reply: FastifyReply, p: Params) {
    if (p.client_id !== ctx.clientId) {
      return errorPage(reply, 'Invalid client', 'The passed in client_id is invalid.');
    }
    if (!isHeraldCallback(ctx, p.redirect_uri)) {
      return errorPage(
        reply,
        'Invalid redirect_uri',
        'The redirect_uri does not match the registered value.',
      );
    }
    return null;
  }

  function redirectWith(reply: FastifyReply, redirectUri: string, fields: Record<string, string>) {
    const url = new URL(redirectUri);
    for (const [key, value] of Object.entries(fields)) url.searchParams.set(key, value);
    return reply.redirect(url.toString(), 302);
  }

  scope.get('/oauth/v2/authorization', async (request, reply) => {
    const p = request.query as Params;
    const problem = clientProblem(reply, p);
    if (problem) return problem;
    const state_ = p.state ?? '';
    if (p.response_type !== 'code') {
      return redirectWith(reply, p.redirect_uri!, {
        error: 'unsupported_response_type',
        error_description: 'Only response_type=code is supported.',
        state: state_,
      });
    }
    const unknown = parseScopes(p.scope).filter((s) => !KNOWN_SCOPES.has(s));
    if (unknown.length) {
      return redirectWith(reply, p.redirect_uri!, {
        error: 'invalid_scope',
        error_description: `Scope "${unknown.join(', ')}" is not authorized for your application`,
        state: state_,
      });
    }
    const members = await state.listMembers();
    const firstOrgs = members[0]
      ? (await Promise.all(members[0].orgIds.map((id) => state.getOrganization(id))))
          .map((o) => o?.name)
          .filter(Boolean)
          .join(', ')
      : DEFAULT_ORGANIZATIONS;
    const extraFields = `
<p>Herald asks for: ${escapeHtml(parseScopes(p.scope).join(', '))}.</p>
<label for="organizations">Organization pages this member administers (comma-separated; empty for none)</label>
<input id="organizations" name="organizations" type="text" value="${escapeHtml(firstOrgs)}">`;
    return reply.type('text/html; charset=utf-8').send(
      renderSandboxAuthorizePage({
        network: 'LinkedIn',
        action: `${ctx.mountPath}/oauth/v2/authorization`,
        hidden: {
          response_type: 'code',
          client_id: p.client_id!,
          redirect_uri: p.redirect_uri!,
          state: state_,
          scope: p.scope ?? '',
        },
        knownAccounts: members.map((m) => m.account),
        accountLabel: 'LinkedIn member name',
        extraFields,
      }),
    );
  });

  scope.post('/oauth/v2/authorization', async (request, reply) => {
    const p = (request.body ?? {}) as Params;
    const problem = clientProblem(reply, p);
    if (problem) return problem;
    if (p.decision !== 'approve') {
      return redirectWith(reply, p.redirect_uri!, {
        error: 'access_denied',
        error_description: 'The member declined to authorize the application.',
        state: p.state ?? '',
      });
    }
    const account = (p.account ?? '').trim();
    if (!account)
      return errorPage(reply, 'Name the member', 'Type the sandbox member to sign in as.');
    const organizations = splitList(p.organizations ?? DEFAULT_ORGANIZATIONS).slice(0, 50);
    const member = await state.saveLogin(account, organizations);
    const code = await state.createCode({
      sub: member.sub,
      clientId: p.client_id!,
      redirectUri: p.redirect_uri!,
      scopes: parseScopes(p.scope),
    });
    return redirectWith(reply, p.redirect_uri!, { code, state: p.state ?? '' });
  });

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
