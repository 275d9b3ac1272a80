import { PlatformError } from '../errors.js';
import { expiresIn, tokenSetFromOAuth } from '../oauth.js';
import type {
  AdapterSettings,
  ConnectableAccount,
  PlatformAdapter,
  StoredAccount,
  TokenSet,
} from '../types.js';
import { createLinkedInApi, type LinkedInApi, type LinkedInOrganization } from './api.js';
import { LINKEDIN_PAGE_ROLES } from './limits.js';
import { createLinkedInPublishing, type LinkedInPublishOptions } from './publishing.js';
import type { LinkedInUrls } from './urls.js';

/** The two kinds of LinkedIn account, each connected through its own developer app. */
export type LinkedInKind = 'person' | 'organization';

/**
 * A personal profile: "Sign In with LinkedIn using OpenID Connect" (openid profile email) and
 * "Share on LinkedIn" (w_member_social) on one app (docs/networks.md#linkedin-oauth).
 */
export const LINKEDIN_PERSON_SCOPES = ['openid', 'profile', 'email', 'w_member_social'];

/**
 * A LinkedIn Page: the Community Management API, which must be the only product on its app, so
 * this sign-in cannot ask for the OpenID scopes.
 */
export const LINKEDIN_PAGE_SCOPES = [
  'r_organization_social',
  'w_organization_social',
  'rw_organization_admin',
];

export const LINKEDIN_SCOPES: Record<LinkedInKind, string[]> = {
  person: LINKEDIN_PERSON_SCOPES,
  organization: LINKEDIN_PAGE_SCOPES,
};

/** The kind a stored account was connected as: `extra.kind`, else what its URN says. */
export const linkedInKindOf = (
  account: Pick<StoredAccount, 'externalId' | 'extra'>,
): LinkedInKind =>
  account.extra.kind === 'organization' || account.extra.kind === 'person'
    ? account.extra.kind
    : account.externalId.startsWith('urn:li:organization:')
      ? 'organization'
      : 'person';

const NO_REFRESH_MESSAGE =
  "LinkedIn needs you to reconnect every 60 days: Herald's LinkedIn app gets no refresh tokens. Connect the account again to keep posting.";

const NO_PAGES_MESSAGE =
  'This LinkedIn member administers no LinkedIn Page Herald can post to (roles ADMINISTRATOR or CONTENT_ADMINISTRATOR). Ask a Page super admin for one of these roles, then connect again.';

/** An organization logo as a picture URL: `logoV2` holds a digital media asset URN. */
async function logoUrl(api: LinkedInApi, token: string, org: LinkedInOrganization) {
  const asset = /^urn:li:digitalmediaAsset:(.+)$/.exec(org.logoV2?.original ?? '')?.[1];
  if (!asset) return null;
  // Best effort: a missing logo must not stop the connection.
  return api.imageDownloadUrl(token, `urn:li:image:${asset}`).catch(() => null);
}

/** The member themselves, from OpenID Connect userinfo. */
async function connectPerson(
  api: LinkedInApi,
  tokens: TokenSet,
  version: string,
): Promise<ConnectableAccount[]> {
  const me = await api.userInfo(tokens.accessToken);
  const personUrn = `urn:li:person:${me.sub}`;
  const name = me.name ?? ([me.given_name, me.family_name].filter(Boolean).join(' ') || null);
  return [
    {
      externalId: personUrn,
      username: null,
      name,
      pictureUrl: me.picture ?? null,
      tokens,
      // The name labels the account's own comments (LinkedIn returns URNs only).
      extra: { kind: 'person', personUrn, name, linkedinVersion: version },
      grantKey: `linkedin:person:${personUrn}`,
    },
  ];
}

/**
 * The Pages the member may post for, from their approved organization roles. A Page app has no
 * OpenID scopes, so the member is known only as the ACLs' `roleAssignee`.
 */
async function connectPages(
  api: LinkedInApi,
  tokens: TokenSet,
  version: string,
): Promise<ConnectableAccount[]> {
  const acls = (await api.organizationRoles(tokens.accessToken)).filter((acl) =>
    (LINKEDIN_PAGE_ROLES as readonly string[]).includes(acl.role),
  );
  if (!acls.length) throw new PlatformError('bad_request', NO_PAGES_MESSAGE);
  const accounts: ConnectableAccount[] = [];
  for (const acl of acls) {
    const org = await api.organization(tokens.accessToken, acl.organizationId);
    const organizationUrn = `urn:li:organization:${org.id}`;
    if (accounts.some((a) => a.externalId === organizationUrn)) continue;
    accounts.push({
      externalId: organizationUrn,
      username: org.vanityName ?? null,
      name: org.localizedName ?? null,
      pictureUrl: await logoUrl(api, tokens.accessToken, org),
      tokens: { ...tokens },
      extra: {
        kind: 'organization',
        organizationUrn,
        personUrn: acl.roleAssignee,
        role: acl.role,
        name: org.localizedName ?? null,
        linkedinVersion: version,
      },
      grantKey: `linkedin:organization:${acl.roleAssignee ?? organizationUrn}`,
    });
  }
  return accounts;
}

/**
 * One kind of LinkedIn account (docs/decisions/0012-linkedin-connect-kinds.md): a member's own
 * profile, or the Pages they administer — each through its own developer app and scopes.
 * Refresh needs a refresh token, which LinkedIn only issues to approved partner apps; without
 * one the token is used until it expires and the admins are reminded to reconnect.
 */
export function createLinkedInAdapter(
  settings: AdapterSettings<LinkedInUrls>,
  options: Partial<LinkedInPublishOptions> = {},
): PlatformAdapter {
  const kind: LinkedInKind = settings.kind === 'organization' ? 'organization' : 'person';
  const api = createLinkedInApi(settings);
  const version = settings.urls.linkedinVersion;
  return {
    name: 'LinkedIn',
    publishing: createLinkedInPublishing(settings, options),
    refreshNeedsRefreshToken: true,

    authorizeUrl: (input) => api.authorizeUrl(input, LINKEDIN_SCOPES[kind]),

    async connect(input) {
      const tokens = tokenSetFromOAuth({
        ...(await api.exchangeCode(input.code, input.redirectUri)),
      });
      return kind === 'person'
        ? connectPerson(api, tokens, version)
        : connectPages(api, tokens, version);
    },

    async refresh(account): Promise<TokenSet> {
      const refreshToken = account.tokens.refreshToken;
      // Asked only once the token is dead or for a partner app's refresh token (the job and the
      // Refresh action leave a live token without one alone: refreshNeedsRefreshToken).
      if (!refreshToken) throw new PlatformError('reauth', NO_REFRESH_MESSAGE);
      let answer;
      try {
        answer = await api.refresh(refreshToken);
      } catch (err) {
        // The token endpoint refusing the grant (expired, revoked, reused) means reconnecting.
        if (
          err instanceof PlatformError &&
          (err.details.status === 400 || err.details.status === 401)
        ) {
          throw new PlatformError('reauth', err.message, err.details);
        }
        throw err;
      }
      const refreshed = tokenSetFromOAuth({ ...answer }, refreshToken);
      return {
        ...refreshed,
        refreshTokenExpiresAt:
          expiresIn(answer.refresh_token_expires_in) ?? account.tokens.refreshTokenExpiresAt,
        scopes: refreshed.scopes.length ? refreshed.scopes : account.tokens.scopes,
      };
    },

    /** Revokes the member's grant to this app: every account of that sign-in stops working. */
    revoke: (account) => api.revoke(account.tokens.accessToken),
  };
}
