import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { type AuthorizeCheck, registerAuthorizeEndpoint } from '../kit/authorize.js';
import type { Params } from '../kit/consent.js';
import type { EmuKit } from '../kit/emu-kit.js';
import { CONNECTED_ELSEWHERE } from '../kit/tenant.js';
import { escapeHtml, handleOf, splitList } from '../kit/html.js';
import { graphErrors } from './errors.js';
import type { GraphAnswer, GraphRequest, GraphRouter } from './router.js';
import { SHORT_LIVED_SECONDS, LONG_LIVED_SECONDS, type GraphState, userAccounts } from './state.js';

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
  'pages_messaging',
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

const instagramNameFor = (account: string) => handleOf(account, 'sandbox_user', 30, '.');

/** The Login dialog (`/{v}/dialog/oauth`) and the token endpoint (`/{v}/oauth/access_token`). */
export function addGraphOAuthRoutes(
  scope: FastifyInstance,
  router: GraphRouter,
  { ctx, kit, state, options }: Deps,
) {
  /** The dialog's parameters as Meta checks them: every problem is a page, never a redirect. */
  function checkDialog(p: Params): AuthorizeCheck {
    if (p.client_id !== ctx.clientId)
      return {
        ok: false,
        page: 'Invalid App ID: the provided app ID does not look like a valid app ID.',
      };
    if (p.response_type && p.response_type !== 'code')
      return { ok: false, page: 'Unsupported response type: only response_type=code is emulated.' };
    const scopes = parseScopes(p.scope);
    const unknown = scopes.filter((s) => !KNOWN_PERMISSIONS.has(s));
    if (unknown.length) return { ok: false, page: `Invalid Scopes: ${unknown.join(', ')}.` };
    return {
      ok: true,
      request: {
        clientId: p.client_id,
        redirectUri: p.redirect_uri ?? '',
        state: p.state ?? '',
        scopes,
        codeChallenge: null,
        codeChallengeMethod: null,
      },
    };
  }

  registerAuthorizeEndpoint(
    scope,
    ctx,
    {
      knownAccounts: async (signer) =>
        (await state.listUsers()).filter((u) => signer.owns(userAccounts(u))).map((u) => u.account),
      async issueCode(form, r, signer) {
        const account = (form.account ?? '').trim();
        if (!account) return { page: 'Name the account: type the sandbox account to sign in as.' };
        const pages = splitList(form.pages ?? DEFAULT_PAGES).slice(0, 50);
        const instagram = form.instagram?.trim()
          ? form.instagram.split(',').map((s) => (s.trim() && s.trim() !== '-' ? s.trim() : null))
          : [instagramNameFor(account)];
        const businessPages = splitList(form.business_pages ?? '').slice(0, 50);
        const user = await state.planLogin(account, pages, instagram, businessPages);
        // Ids come from the names typed: the Pages and Instagram accounts the user had, and the
        // ones the form names (an Instagram username alone makes an id), must all be free of
        // other organizations' connections.
        const before = await state.getUser(user.id);
        const touched = [...userAccounts(user), ...(before ? userAccounts(before) : [])];
        if (await signer.connectedElsewhere(touched)) return { page: CONNECTED_ELSEWHERE };
        await state.saveUser(user);
        await kit.signedIn([user.account, user.id, ...userAccounts(user)], signer.organizationIds);
        return state.createCode({
          userId: user.id,
          clientId: r.clientId,
          redirectUri: r.redirectUri,
          scopes: r.scopes,
        });
      },
    },
    {
      network: options.network,
      path: ['/:version/dialog/oauth', '/dialog/oauth'],
      accountLabel: 'Facebook account name',
      check: checkDialog,
      hidden: (r) => ({
        client_id: r.clientId,
        redirect_uri: r.redirectUri,
        state: r.state ?? '',
        scope: r.scopes.join(','),
        response_type: 'code',
      }),
      denied: (r) => ({
        error: 'access_denied',
        error_code: '200',
        error_description: 'Permissions error',
        error_reason: 'user_denied',
        state: r.state ?? '',
      }),
      approved: (code, r) => ({ code, state: r.state ?? '' }),
      async extraFields(r, known) {
        const first = (await state.listUsers()).find((u) => u.account === known[0]);
        const personal = first?.pages.filter((page) => page.personal !== false);
        const pages = personal?.map((page) => page.name).join(', ') || DEFAULT_PAGES;
        return `
<p>Herald asks for: ${escapeHtml(r.scopes.join(', '))}.</p>
<label for="pages">Pages this account manages (comma-separated; fewer tasks in brackets, e.g. "Shop (ANALYZE, MODERATE)")</label>
<input id="pages" name="pages" type="text" value="${escapeHtml(pages)}">
<label for="business_pages">Pages reached only through a business portfolio (comma-separated "Page @ Portfolio", "[client]" for a client's Page; empty for none)</label>
<input id="business_pages" name="business_pages" type="text" value="">
${
  options.instagramField
    ? `<label for="instagram">Instagram professional accounts linked to those Pages, in order (comma-separated; "-" skips a Page; empty: one named after the account, on the first Page)</label>
<input id="instagram" name="instagram" type="text" value="">`
    : ''
}`;
      },
    },
  );

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

  router.add('GET', 'oauth/access_token', accessToken);
  router.add('POST', 'oauth/access_token', accessToken);
}
