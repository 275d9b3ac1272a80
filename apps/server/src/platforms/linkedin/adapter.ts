import { PlatformError } from '../errors.js';
import { expiresIn, tokenSetFromOAuth } from '../oauth.js';
import type { AdapterSettings, ConnectableAccount, PlatformAdapter, TokenSet } from '../types.js';
import { createLinkedInApi, type LinkedInApi, type LinkedInOrganization } from './api.js';
import { createLinkedInPublishing, type LinkedInPublishOptions } from './publishing.js';
import type { LinkedInUrls } from './urls.js';

/** Personal posting plus organization pages (docs/networks.md#linkedin-oauth). */
export const LINKEDIN_SCOPES = [
  'openid',
  'profile',
  'email',
  'w_member_social',
  'r_organization_social',
  'w_organization_social',
  'rw_organization_admin',
];

const NO_REFRESH_MESSAGE =
  "LinkedIn needs you to reconnect every 60 days: Herald's LinkedIn app gets no refresh tokens. Connect the account again to keep posting.";

/** An organization logo as a picture URL: `logoV2` holds a digital media asset URN. */
async function logoUrl(api: LinkedInApi, token: string, org: LinkedInOrganization) {
  const asset = /^urn:li:digitalmediaAsset:(.+)$/.exec(org.logoV2?.original ?? '')?.[1];
  if (!asset) return null;
  // Best effort: a missing logo must not stop the connection.
  return api.imageDownloadUrl(token, `urn:li:image:${asset}`).catch(() => null);
}

async function listOrganizations(api: LinkedInApi, token: string) {
  let ids: string[];
  try {
    ids = await api.administeredOrganizationIds(token);
  } catch (err) {
    // Without the Community Management product (403) the member can still post as themselves.
    if (err instanceof PlatformError && err.details.status === 403) return [];
    throw err;
  }
  return Promise.all(ids.map((id) => api.organization(token, id)));
}

/**
 * LinkedIn members and the organization pages they administer. One sign-in offers the person
 * and each organization; all share the member's token. Refresh needs a refresh token, which
 * LinkedIn only issues to approved partner apps.
 */
export function createLinkedInAdapter(
  settings: AdapterSettings<LinkedInUrls>,
  options: Partial<LinkedInPublishOptions> = {},
): PlatformAdapter {
  const api = createLinkedInApi(settings);
  const version = settings.urls.linkedinVersion;
  return {
    name: 'LinkedIn',
    publishing: createLinkedInPublishing(settings, options),

    authorizeUrl: (input) => api.authorizeUrl(input, LINKEDIN_SCOPES),

    async connect(input) {
      const tokens = tokenSetFromOAuth({
        ...(await api.exchangeCode(input.code, input.redirectUri)),
      });
      const me = await api.userInfo(tokens.accessToken);
      const personUrn = `urn:li:person:${me.sub}`;
      const name = me.name ?? ([me.given_name, me.family_name].filter(Boolean).join(' ') || null);
      const accounts: ConnectableAccount[] = [
        {
          externalId: personUrn,
          username: null,
          name,
          pictureUrl: me.picture ?? null,
          tokens: { ...tokens },
          // The name labels the account's own comments (LinkedIn returns URNs only).
          extra: { kind: 'person', personUrn, name, linkedinVersion: version },
          grantKey: `linkedin:${personUrn}`,
        },
      ];
      for (const org of await listOrganizations(api, tokens.accessToken)) {
        const organizationUrn = `urn:li:organization:${org.id}`;
        accounts.push({
          externalId: organizationUrn,
          username: org.vanityName ?? null,
          name: org.localizedName ?? null,
          pictureUrl: await logoUrl(api, tokens.accessToken, org),
          tokens: { ...tokens },
          extra: {
            kind: 'organization',
            organizationUrn,
            personUrn,
            name: org.localizedName ?? null,
            linkedinVersion: version,
          },
          grantKey: `linkedin:${personUrn}`,
        });
      }
      return accounts;
    },

    async refresh(account): Promise<TokenSet> {
      const refreshToken = account.tokens.refreshToken;
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
      const tokens = tokenSetFromOAuth({ ...answer }, refreshToken);
      return {
        ...tokens,
        refreshTokenExpiresAt:
          expiresIn(answer.refresh_token_expires_in) ?? account.tokens.refreshTokenExpiresAt,
        scopes: tokens.scopes.length ? tokens.scopes : account.tokens.scopes,
      };
    },

    /** Revokes the member's grant: every account of this sign-in stops working. */
    revoke: (account) => api.revoke(account.tokens.accessToken),
  };
}
