import { PlatformError } from '../errors.js';
import { form } from '../oauth.js';
import type { AdapterSettings } from '../types.js';
import { requestLinkedIn } from './errors.js';
import { LINKEDIN_ACL_PAGE_SIZE } from './limits.js';
import type { LinkedInUrls } from './urls.js';

export interface LinkedInTokenAnswer {
  access_token: string;
  expires_in?: number;
  scope?: string;
  refresh_token?: string;
  refresh_token_expires_in?: number;
}

/** OIDC userinfo (docs/networks.md#linkedin-oauth). */
export interface LinkedInUserInfo {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  email?: string;
}

interface OrganizationAcl {
  organization?: string;
  role?: string;
  state?: string;
  roleAssignee?: string;
}

/** One approved role of the member on an organization. */
export interface OrganizationRole {
  organizationId: string;
  role: string;
  roleAssignee: string | null;
}

export interface LinkedInOrganization {
  id: number | string;
  localizedName?: string;
  vanityName?: string;
  logoV2?: { original?: string; cropped?: string };
}

/** Safety stop when paging organization ACLs. */
const MAX_ACL_PAGES = 20;

/** Typed calls to LinkedIn's OAuth host and API (docs/networks.md#linkedin). Every /rest call carries the version headers. */
export function createLinkedInApi(settings: AdapterSettings<LinkedInUrls>) {
  const { urls, http, clientId, clientSecret } = settings;
  const call = <T>(url: string, init: RequestInit) => requestLinkedIn<T>(http, url, init);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const rest = (token: string) => ({
    ...bearer(token),
    'linkedin-version': urls.linkedinVersion,
    'x-restli-protocol-version': '2.0.0',
  });
  const formPost = (fields: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form(fields),
  });

  async function tokenAnswer(fields: Record<string, string>) {
    const body = await call<LinkedInTokenAnswer>(urls.tokenUrl, formPost(fields));
    if (typeof body?.access_token !== 'string' || !body.access_token) {
      throw new PlatformError('bad_request', 'LinkedIn answered the sign-in without a token.');
    }
    return body;
  }

  return {
    authorizeUrl(input: { redirectUri: string; state: string }, scopes: string[]) {
      const url = new URL(urls.authorizeUrl);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('redirect_uri', input.redirectUri);
      url.searchParams.set('state', input.state);
      url.searchParams.set('scope', scopes.join(' '));
      return url.toString();
    },

    exchangeCode: (code: string, redirectUri: string) =>
      tokenAnswer({
        grant_type: 'authorization_code',
        code,
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uri: redirectUri,
      }),

    refresh: (refreshToken: string) =>
      tokenAnswer({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: clientId,
        client_secret: clientSecret,
      }),

    async revoke(token: string) {
      await call<unknown>(
        urls.revokeUrl,
        formPost({ token, client_id: clientId, client_secret: clientSecret }),
      );
    },

    userInfo: (token: string) =>
      call<LinkedInUserInfo>(`${urls.apiBase}/v2/userinfo`, { headers: bearer(token) }),

    /**
     * The member's approved roles on organizations (`q=roleAssignee`, every role: the caller
     * decides which allow posting). A Page app has no OpenID scopes, so `roleAssignee` is how
     * it learns who signed in.
     */
    async organizationRoles(token: string): Promise<OrganizationRole[]> {
      const roles: OrganizationRole[] = [];
      for (let page = 0, start = 0; page < MAX_ACL_PAGES; page++) {
        const url = new URL(`${urls.apiBase}/rest/organizationAcls`);
        url.searchParams.set('q', 'roleAssignee');
        url.searchParams.set('state', 'APPROVED');
        url.searchParams.set('start', String(start));
        url.searchParams.set('count', String(LINKEDIN_ACL_PAGE_SIZE));
        const body = await call<{
          elements?: OrganizationAcl[];
          paging?: { start?: number; count?: number; total?: number };
        }>(url.toString(), { headers: rest(token) });
        const elements = body.elements ?? [];
        for (const acl of elements) {
          const id = /^urn:li:organization:(\d+)$/.exec(acl.organization ?? '')?.[1];
          if (id && acl.state === 'APPROVED' && acl.role)
            roles.push({
              organizationId: id,
              role: acl.role,
              roleAssignee: acl.roleAssignee ?? null,
            });
        }
        start += elements.length;
        const total = body.paging?.total;
        if (
          elements.length === 0 ||
          (total !== undefined ? start >= total : elements.length < LINKEDIN_ACL_PAGE_SIZE)
        )
          break;
      }
      return roles;
    },

    organization: (token: string, id: string) =>
      call<LinkedInOrganization>(`${urls.apiBase}/rest/organizations/${encodeURIComponent(id)}`, {
        headers: rest(token),
      }),

    /** Where an image (an organization logo…) can be downloaded from, per the Images API. */
    async imageDownloadUrl(token: string, imageUrn: string): Promise<string | null> {
      const body = await call<{ downloadUrl?: string }>(
        `${urls.apiBase}/rest/images/${encodeURIComponent(imageUrn)}`,
        { headers: rest(token) },
      );
      return body.downloadUrl ?? null;
    },
  };
}

export type LinkedInApi = ReturnType<typeof createLinkedInApi>;
