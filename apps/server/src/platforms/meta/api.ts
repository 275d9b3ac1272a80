import { PlatformError } from '../errors.js';
import { requestJson } from '../oauth.js';
import type { AdapterSettings } from '../types.js';
import { describeMetaError } from './errors.js';
import type { MetaUrls } from './urls.js';

export type MetaNetwork = 'Facebook' | 'Instagram';

export interface GraphTokenAnswer {
  access_token: string;
  token_type?: string;
  expires_in?: number;
}

export interface GraphList<T> {
  data: T[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string; previous?: string };
}

type Params = Record<string, string | undefined>;

/** Safety stop when following Graph cursors (100 items a page × 20 pages). */
const MAX_PAGES_FOLLOWED = 20;

/**
 * Typed calls to the Graph API for the Facebook Login half shared by Facebook Pages and
 * Instagram. Data calls send the token in the Authorization header so it never sits in a URL.
 */
export function createGraphApi(settings: AdapterSettings<MetaUrls>, network: MetaNetwork) {
  const { urls, http, clientId, clientSecret } = settings;

  const graphUrl = (path: string, params: Params = {}) => {
    const url = new URL(`${urls.graphBase}/${urls.graphVersion}/${path}`);
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    return url.toString();
  };
  const call = <T>(url: string, init: RequestInit = {}) =>
    requestJson<T>(http, network, url, init, describeMetaError);
  const withToken = (token: string, init: RequestInit = {}): RequestInit => ({
    ...init,
    headers: { ...(init.headers as Record<string, string>), authorization: `OAuth ${token}` },
  });

  async function tokenAnswer(url: string): Promise<GraphTokenAnswer> {
    const body = await call<GraphTokenAnswer>(url, { method: 'GET' });
    if (typeof body?.access_token !== 'string' || !body.access_token) {
      throw new PlatformError('bad_request', `${network} answered the sign-in without a token.`);
    }
    return body;
  }

  /** Every item of a list edge (`me/accounts`, `{business}/owned_pages`…), following the cursors. */
  async function listEdge<T>(
    userToken: string,
    edge: string,
    fields: string,
    limit: number,
  ): Promise<T[]> {
    const pages: T[] = [];
    let after: string | undefined;
    for (let i = 0; i < MAX_PAGES_FOLLOWED; i++) {
      const body = await call<GraphList<T>>(
        graphUrl(edge, { fields, limit: String(limit), after }),
        withToken(userToken),
      );
      pages.push(...(body.data ?? []));
      after = body.paging?.cursors?.after;
      if (!body.paging?.next || !after || (body.data ?? []).length === 0) break;
    }
    return pages;
  }

  return {
    /** The Login dialog (no PKCE in the classic flow). */
    dialogUrl(input: { redirectUri: string; state: string }, scopes: string[]) {
      const url = new URL(`${urls.dialogBase}/${urls.graphVersion}/dialog/oauth`);
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('redirect_uri', input.redirectUri);
      url.searchParams.set('state', input.state);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', scopes.join(','));
      return url.toString();
    },

    /** Code → short-lived user token (hours). */
    exchangeCode(code: string, redirectUri: string) {
      return tokenAnswer(
        graphUrl('oauth/access_token', {
          client_id: clientId,
          redirect_uri: redirectUri,
          client_secret: clientSecret,
          code,
        }),
      );
    },

    /** A still-valid user token → a long-lived one (~60 days). An expired token cannot be exchanged. */
    exchangeForLongLived(token: string) {
      return tokenAnswer(
        graphUrl('oauth/access_token', {
          grant_type: 'fb_exchange_token',
          client_id: clientId,
          client_secret: clientSecret,
          fb_exchange_token: token,
        }),
      );
    },

    /** The permissions the person granted (they may decline some in the dialog). */
    async grantedPermissions(token: string): Promise<string[]> {
      const body = await call<GraphList<{ permission: string; status: string }>>(
        graphUrl('me/permissions'),
        withToken(token),
      );
      return (body.data ?? []).filter((p) => p.status === 'granted').map((p) => p.permission);
    },

    /** Every Page the user manages (`/me/accounts`), following the cursors. */
    listPages<T>(userToken: string, fields: string, limit: number): Promise<T[]> {
      return listEdge<T>(userToken, 'me/accounts', fields, limit);
    },

    listEdge,

    /** One Graph node (a Page, an Instagram user…) with the fields asked for. */
    getNode<T>(id: string, token: string, fields: string) {
      return call<T>(graphUrl(encodeURIComponent(id), { fields }), withToken(token));
    },

    /** Removes the app from the person's account: every token of this login stops working. */
    async revokeApp(userToken: string) {
      await call<{ success?: boolean }>(
        graphUrl('me/permissions'),
        withToken(userToken, { method: 'DELETE' }),
      );
    },
  };
}

export type GraphApi = ReturnType<typeof createGraphApi>;
