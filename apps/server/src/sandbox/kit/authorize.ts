import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import {
  answerConsent,
  authorizeParams,
  errorPage,
  isHeraldCallback,
  type Params,
  REDIRECT_MISMATCH,
  redirectWith,
  showConsent,
} from './consent.js';
import type { SandboxAccount, SandboxOAuth } from './oauth-state.js';

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

/** What differs between the networks' authorize endpoints; the flow around it is the kit's. */
export interface AuthorizeEndpoint {
  /** The network's name on the consent and error pages ("X", "TikTok"…). */
  network: string;
  /** The endpoint's path below the emulator's mount path. */
  path: string;
  check(params: Params): AuthorizeCheck;
  /** The validated request as hidden fields of the consent form (names as the network sends them). */
  hidden(request: AuthorizeRequest): Record<string, string>;
  /** The parameters the client gets back when the person declines. */
  denied(request: AuthorizeRequest): Params;
  /** The parameters the client gets back with a fresh code. */
  approved(code: string, request: AuthorizeRequest): Params;
}

/**
 * Registers a network's authorize endpoint (GET shows the consent page, POST answers it):
 * checks the parameters the network's way (a client it does not know gets its error page), then
 * refuses any redirect_uri but Herald's callback with an error page, then issues a code for the
 * account the person names.
 */
export function registerAuthorizeEndpoint(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
  endpoint: AuthorizeEndpoint,
) {
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
    const approve = async (account: SandboxAccount) => {
      const code = await oauth.issueCode({
        accountId: account.id,
        clientId: r.clientId,
        redirectUri: r.redirectUri,
        scopes: r.scopes,
        codeChallenge: r.codeChallenge,
        codeChallengeMethod: r.codeChallengeMethod,
      });
      return endpoint.approved(code, r);
    };
    if (request.method === 'POST')
      return answerConsent(reply, {
        oauth,
        form: params,
        redirectUri: r.redirectUri,
        denied: endpoint.denied(r),
        approve,
      });
    return showConsent(request, reply, {
      network: endpoint.network,
      oauth,
      action: `${ctx.mountPath}${endpoint.path}`,
      accountLabel: `${endpoint.network} username`,
      hidden: endpoint.hidden(r),
      approve,
    });
  }
  scope.get(endpoint.path, authorize);
  scope.post(endpoint.path, authorize);
}
