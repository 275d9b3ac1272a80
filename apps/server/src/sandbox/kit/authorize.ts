import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { renderSandboxAuthorizePage } from './authorize-page.js';
import {
  authorizeParams,
  errorPage,
  isHeraldCallback,
  type Params,
  REDIRECT_MISMATCH,
  redirectWith,
} from './consent.js';
import type { SandboxAccount, SandboxOAuth } from './oauth-state.js';
import { CONNECTED_ELSEWHERE, type ConsentSigner } from './tenant.js';

/** An authorize request once the network has checked it: what the code will be bound to. */
export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  scopes: string[];
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
}

/** A network's verdict on the authorize parameters. */
export type AuthorizeCheck =
  | { ok: true; request: AuthorizeRequest }
  /** The client or redirect_uri cannot be trusted: an error page, no redirect. */
  | { ok: false; page: string }
  /** Anything else wrong goes back to the client with the network's error parameters. */
  | { ok: false; redirectUri: string; error: Params };

/**
 * Who signs in on the consent page, and how a code is issued for them. `signer` is the person on
 * the page: only accounts their organizations connected are offered, and an account another
 * organization connected is refused (kit/tenant.ts).
 */
export interface ConsentSignIn {
  /** Names of the person's accounts signed in before, most recent first (offered on the page). */
  knownAccounts(signer: ConsentSigner): Promise<string[]>;
  /**
   * Signs in the account the form names (`account`, plus the network's extra fields) and issues
   * a code bound to the request; or an error page's sentence when the form cannot be used.
   */
  issueCode(
    form: Params,
    request: AuthorizeRequest,
    signer: ConsentSigner,
  ): Promise<string | { page: string }>;
}

/**
 * Sign-in for emulators built on SandboxOAuth (X, Threads, TikTok). `signedIn` runs once the
 * account is known to be the person's to use (X records the subscription chosen on the page).
 */
export const oauthSignIn = (
  oauth: SandboxOAuth,
  signedIn?: (account: SandboxAccount, form: Params) => Promise<void>,
): ConsentSignIn => ({
  knownAccounts: (signer) => oauth.accountNames(signer),
  async issueCode(form, r, signer) {
    const account = await oauth.signIn(form.account ?? '', signer);
    if (!account) return { page: CONNECTED_ELSEWHERE };
    await signedIn?.(account, form);
    return oauth.issueCode({
      accountId: account.id,
      clientId: r.clientId,
      redirectUri: r.redirectUri,
      scopes: r.scopes,
      codeChallenge: r.codeChallenge,
      codeChallengeMethod: r.codeChallengeMethod,
    });
  },
});

/** What differs between the networks' authorize endpoints; the flow around it is the kit's. */
export interface AuthorizeEndpoint {
  /** The network's name on the consent and error pages ("X", "TikTok"…). */
  network: string;
  /** The endpoint's paths below the emulator's mount path (Fastify syntax: `/:version/dialog/oauth`). */
  path: string | string[];
  check(params: Params): AuthorizeCheck;
  /** The validated request as hidden fields of the consent form (names as the network sends them). */
  hidden(request: AuthorizeRequest): Record<string, string>;
  /** The parameters the client gets back when the person declines. */
  denied(request: AuthorizeRequest): Params;
  /** The parameters the client gets back with a fresh code. */
  approved(code: string, request: AuthorizeRequest): Params;
  /** The label of the account field (default: "{network} username"). */
  accountLabel?: string;
  /** More form fields (HTML) under the account: the Pages or organizations to pick… */
  extraFields?(request: AuthorizeRequest, knownAccounts: string[]): Promise<string>;
}

/**
 * Registers a network's authorize endpoint (GET shows the consent page, POST answers it):
 * checks the parameters the network's way (a client it does not know gets its error page), then
 * refuses any redirect_uri but Herald's callback with an error page, then issues a code for the
 * account the person names (unless another organization connected it). With `emu_auto=1` the GET approves at once as `emu_account` (or the
 * most recent of the person's accounts).
 */
export function registerAuthorizeEndpoint(
  scope: FastifyInstance,
  ctx: SandboxContext,
  signIn: ConsentSignIn,
  endpoint: AuthorizeEndpoint,
) {
  async function approve(
    reply: FastifyReply,
    form: Params,
    r: AuthorizeRequest,
    signer: ConsentSigner,
  ) {
    const code = await signIn.issueCode(form, r, signer);
    if (typeof code !== 'string') return errorPage(reply, endpoint.network, code.page);
    return redirectWith(reply, r.redirectUri, endpoint.approved(code, r));
  }

  async function authorize(request: FastifyRequest, reply: FastifyReply) {
    const params = authorizeParams(request);
    const checked = endpoint.check(params);
    if (checked.ok || !('page' in checked)) {
      // Whatever the verdict, the browser only ever goes back to Herald's own callback.
      const target = checked.ok ? checked.request.redirectUri : checked.redirectUri;
      if (!isHeraldCallback(ctx, target))
        return errorPage(reply, endpoint.network, REDIRECT_MISMATCH);
    }
    if (!checked.ok)
      return 'page' in checked
        ? errorPage(reply, endpoint.network, checked.page)
        : redirectWith(reply, checked.redirectUri, checked.error);
    const r = checked.request;
    const signer = await ctx.signerOf(request);
    if (request.method === 'POST') {
      if (params.decision !== 'approve')
        return redirectWith(reply, r.redirectUri, endpoint.denied(r));
      return approve(reply, params, r, signer);
    }
    const known = await signIn.knownAccounts(signer);
    if (params.emu_auto === '1')
      return approve(
        reply,
        { account: params.emu_account ?? known[0] ?? 'sandbox_user' },
        r,
        signer,
      );
    return reply.type('text/html; charset=utf-8').send(
      renderSandboxAuthorizePage({
        network: endpoint.network,
        // The form posts back where the page came from (the path may hold a version).
        action: request.url.split('?')[0]!,
        hidden: endpoint.hidden(r),
        knownAccounts: known,
        accountLabel: endpoint.accountLabel ?? `${endpoint.network} username`,
        extraFields: await endpoint.extraFields?.(r, known),
      }),
    );
  }
  // A session is recognised, not required: the page offers the signed-in person's accounts and
  // keeps them from another organization's (ctx.signerOf).
  const options = { config: { access: 'optional' as const } };
  for (const path of [endpoint.path].flat()) {
    scope.get(path, options, authorize);
    scope.post(path, options, authorize);
  }
}
