import { renderSandboxAuthorizePage } from '../kit/authorize-page.js';
import type { SandboxContext } from '../context.js';
import type { EmuKit } from '../kit/emu-kit.js';
import { isHeraldCallback } from '../kit/consent.js';
import { escapeHtml, splitList } from '../kit/html.js';
import { graphErrors } from './errors.js';
import type { GraphAnswer, GraphRequest, GraphRouter } from './router.js';
import { SHORT_LIVED_SECONDS, LONG_LIVED_SECONDS, type GraphState } from './state.js';

export interface GraphOAuthOptions {
  network: 'Facebook' | 'Instagram';
  /** Show the field naming the Instagram accounts linked to the Pages. */
  instagramField: boolean;
}

interface Deps {
  ctx: SandboxContext;
  kit: EmuKit;
  state: GraphState;
  options: GraphOAuthOptions;
}

/** Permissions the dialog knows; anything else is "Invalid Scopes", as at Meta. */
const KNOWN_PERMISSIONS = new Set([
  'public_profile',
  'email',
  'pages_show_list',
  'pages_manage_posts',
  'pages_read_engagement',
  'pages_read_user_content',
  'pages_manage_engagement',
  'pages_manage_metadata',
  'publish_video',
  'read_insights',
  'business_management',
  'instagram_basic',
  'instagram_content_publish',
  'instagram_manage_comments',
  'instagram_manage_insights',
  'instagram_manage_messages',
]);

const DEFAULT_PAGES = 'Herald Sandbox Page, Herald Sandbox Shop';

const parseScopes = (scope: string | undefined) => [
  'public_profile',
  ...new Set((scope ?? '').split(/[\s,]+/).filter((s) => s && s !== 'public_profile')),
];

const instagramNameFor = (account: string) =>
  account
    .toLowerCase()
    .replace(/[^a-z0-9._]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 30) || 'sandbox_user';

const errorPage = (title: string, detail: string): GraphAnswer => ({
  status: 400,
  html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></body></html>`,
});

/** The Login dialog (`/{v}/dialog/oauth`) and the token endpoint (`/{v}/oauth/access_token`). */
export function addGraphOAuthRoutes(router: GraphRouter, { ctx, kit, state, options }: Deps) {
  function dialogProblem(p: Record<string, string>): GraphAnswer | null {
    if (p.client_id !== ctx.clientId) {
      return errorPage('Invalid App ID', 'The provided app ID does not look like a valid app ID.');
    }
    if (!isHeraldCallback(ctx, p.redirect_uri)) {
      return errorPage(
        'URL blocked',
        "This redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings.",
      );
    }
    if (p.response_type && p.response_type !== 'code') {
      return errorPage('Unsupported response type', 'Only response_type=code is emulated.');
    }
    const unknown = parseScopes(p.scope).filter((s) => !KNOWN_PERMISSIONS.has(s));
    if (unknown.length)
      return errorPage('Invalid Scopes', `Invalid Scopes: ${unknown.join(', ')}.`);
    return null;
  }

  async function showDialog(req: GraphRequest): Promise<GraphAnswer> {
    const p = req.params;
    const problem = dialogProblem(p);
    if (problem) return problem;
    const users = await state.listUsers();
    const pages = users[0]?.pages.map((page) => page.name).join(', ') || DEFAULT_PAGES;
    const extraFields = `
<p>Herald asks for: ${escapeHtml(parseScopes(p.scope).join(', '))}.</p>
<label for="pages">Pages this account manages (comma-separated)</label>
<input id="pages" name="pages" type="text" value="${escapeHtml(pages)}">
${
  options.instagramField
    ? `<label for="instagram">Instagram professional accounts linked to those Pages, in order (comma-separated; "-" skips a Page; empty: one named after the account, on the first Page)</label>
<input id="instagram" name="instagram" type="text" value="">`
    : ''
}`;
    return {
      html: renderSandboxAuthorizePage({
        network: options.network,
        action: `${ctx.mountPath}${req.version ? `/${req.version}` : ''}/dialog/oauth`,
        hidden: {
          client_id: p.client_id!,
          redirect_uri: p.redirect_uri!,
          state: p.state ?? '',
          scope: p.scope ?? '',
          response_type: 'code',
        },
        knownAccounts: users.map((u) => u.account),
        accountLabel: 'Facebook account name',
        extraFields,
      }),
    };
  }

  async function answerDialog(req: GraphRequest): Promise<GraphAnswer> {
    const p = req.params;
    const problem = dialogProblem(p);
    if (problem) return problem;
    const redirect = new URL(p.redirect_uri!);
    if (p.decision !== 'approve') {
      redirect.searchParams.set('error', 'access_denied');
      redirect.searchParams.set('error_code', '200');
      redirect.searchParams.set('error_description', 'Permissions error');
      redirect.searchParams.set('error_reason', 'user_denied');
      redirect.searchParams.set('state', p.state ?? '');
      return { redirect: redirect.toString() };
    }
    const account = (p.account ?? '').trim();
    if (!account) return errorPage('Name the account', 'Type the sandbox account to sign in as.');
    const pages = splitList(p.pages ?? DEFAULT_PAGES).slice(0, 50);
    const instagram = p.instagram?.trim()
      ? p.instagram.split(',').map((s) => (s.trim() && s.trim() !== '-' ? s.trim() : null))
      : [instagramNameFor(account)];
    const user = await state.saveLogin(account, pages, instagram);
    const code = await state.createCode({
      userId: user.id,
      clientId: p.client_id!,
      redirectUri: p.redirect_uri!,
      scopes: parseScopes(p.scope),
    });
    redirect.searchParams.set('code', code);
    redirect.searchParams.set('state', p.state ?? '');
    return { redirect: redirect.toString() };
  }

  async function accessToken(req: GraphRequest): Promise<GraphAnswer> {
    const p = req.params;
    if (p.client_id !== ctx.clientId) throw graphErrors.badAppId();
    if (p.client_secret !== ctx.clientSecret) throw graphErrors.badSecret();
    if (p.grant_type === 'fb_exchange_token') {
      if (!p.fb_exchange_token) throw graphErrors.missingParam('fb_exchange_token');
      const { token, user } = await state.authenticate(p.fb_exchange_token);
      if (token.kind !== 'user') throw graphErrors.badToken();
      if (await kit.isOn('refresh_fails', [user.account, user.id])) throw graphErrors.expired();
      const value = await state.issueUserToken(user, token.scopes, 'long');
      return {
        json: { access_token: value, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS },
      };
    }
    if (!p.code) throw graphErrors.missingParam('code');
    if (!p.redirect_uri) throw graphErrors.missingParam('redirect_uri');
    const code = await state.readCode(p.code);
    if (code.clientId !== p.client_id) throw graphErrors.unknownCode();
    if (code.redirectUri !== p.redirect_uri) throw graphErrors.redirectMismatch();
    await state.markCodeUsed(p.code);
    const user = await state.getUser(code.userId);
    if (!user) throw graphErrors.unknownCode();
    const value = await state.issueUserToken(user, code.scopes, 'short');
    return { json: { access_token: value, token_type: 'bearer', expires_in: SHORT_LIVED_SECONDS } };
  }

  router.add('GET', 'dialog/oauth', showDialog);
  router.add('POST', 'dialog/oauth', answerDialog);
  router.add('GET', 'oauth/access_token', accessToken);
  router.add('POST', 'oauth/access_token', accessToken);
}
