import { PlatformError } from '../errors.js';
import { createGraphApi } from '../meta/api.js';
import type { MetaPublishingOptions } from '../meta/limits.js';
import { revokeMetaLogin, signInWithCode } from '../meta/login.js';
import type { MetaUrls } from '../meta/urls.js';
import type { AdapterSettings, ConnectableAccount, PlatformAdapter } from '../types.js';
import { listManagedPages } from './api.js';
import { createFacebookPublishing } from './publishing.js';

/** Publish, comment and insight permissions for Pages (docs/networks.md#facebook-oauth). */
export const FACEBOOK_SCOPES = [
  'pages_show_list',
  'pages_manage_posts',
  'pages_read_engagement',
  'pages_manage_engagement',
  'pages_read_user_content',
  'publish_video',
  'read_insights',
];

/**
 * Facebook Pages through Facebook Login. One sign-in offers every Page the person manages; each
 * Page is connected with its own Page token, which does not expire when it comes from a
 * long-lived user token. There is no `refresh`: a dead Page token (190) means reconnecting, and
 * the stored user token could not mint a Page token the service would know to store.
 * `options` changes timeouts (tests).
 */
export function createFacebookAdapter(
  settings: AdapterSettings<MetaUrls>,
  options: MetaPublishingOptions = {},
): PlatformAdapter {
  const api = createGraphApi(settings, 'Facebook');
  return {
    name: 'Facebook',

    authorizeUrl: (input) => api.dialogUrl(input, FACEBOOK_SCOPES),

    async connect(input) {
      const login = await signInWithCode(api, input);
      const pages = await listManagedPages(api, login.userToken);
      const accounts: ConnectableAccount[] = pages
        .filter((page) => typeof page.access_token === 'string' && page.access_token)
        .map((page) => ({
          externalId: page.id,
          username: null,
          name: page.name ?? null,
          pictureUrl: page.picture?.data?.url ?? null,
          tokens: {
            accessToken: page.access_token!,
            accessTokenExpiresAt: null,
            refreshToken: null,
            refreshTokenExpiresAt: null,
            scopes: login.scopes,
          },
          extra: {
            pageId: page.id,
            facebookUserId: login.facebookUserId,
            tasks: page.tasks ?? [],
            userTokenExpiresAt: login.userTokenExpiresAt?.toISOString() ?? null,
          },
          secrets: { userToken: login.userToken },
          grantKey: `meta:${login.facebookUserId}`,
        }));
      if (accounts.length === 0) {
        throw new PlatformError(
          'bad_request',
          'This Facebook login manages no Pages Herald can use. Create a Page or ask for a role on one, then connect again and allow access to it.',
        );
      }
      return accounts;
    },

    /** Removes Herald from the person's Facebook account (all Pages of that login). */
    revoke: (account) => revokeMetaLogin(api, account.secrets.userToken),

    publishing: createFacebookPublishing(settings, options),
  };
}
