import { PlatformError } from '../errors.js';
import { createGraphApi } from '../meta/api.js';
import type { MetaPublishingOptions } from '../meta/limits.js';
import { revokeMetaLogin, signInWithCode } from '../meta/login.js';
import type { MetaUrls } from '../meta/urls.js';
import { expiresIn } from '../oauth.js';
import type { AdapterSettings, ConnectableAccount, PlatformAdapter } from '../types.js';
import { getInstagramUser, listPagesWithInstagram } from './api.js';
import { createInstagramPublishing } from './publishing.js';

/** Publish, comment and insight permissions for Instagram with Facebook Login (docs/networks.md#instagram-oauth). */
export const INSTAGRAM_SCOPES = [
  'instagram_basic',
  'instagram_content_publish',
  'instagram_manage_comments',
  'instagram_manage_insights',
  'pages_show_list',
  'pages_read_engagement',
  'business_management',
  // The inbox (docs/inbox.md#facebook-and-instagram): DMs, and the linked Page's webhook subscription.
  'instagram_manage_messages',
  'pages_manage_metadata',
];

/**
 * Instagram professional accounts linked to the Pages of a Facebook login. Calls use the
 * long-lived user token (~60 days, no refresh token): `refresh` exchanges it again while it is
 * still valid. The Page token is kept as a secret for calls that need it. `options` changes
 * timeouts and polling (tests).
 */
export function createInstagramAdapter(
  settings: AdapterSettings<MetaUrls>,
  options: MetaPublishingOptions = {},
): PlatformAdapter {
  const api = createGraphApi(settings, 'Instagram');
  return {
    name: 'Instagram',

    authorizeUrl: (input) => api.dialogUrl(input, INSTAGRAM_SCOPES),

    async connect(input) {
      const login = await signInWithCode(api, input);
      const pages = await listPagesWithInstagram(api, login.userToken);
      const accounts: ConnectableAccount[] = [];
      for (const page of pages) {
        const igUserId = page.instagram_business_account!.id;
        const user = await getInstagramUser(api, igUserId, login.userToken);
        accounts.push({
          externalId: user.id ?? igUserId,
          username: user.username ?? null,
          name: user.name ?? null,
          pictureUrl: user.profile_picture_url ?? null,
          tokens: {
            accessToken: login.userToken,
            accessTokenExpiresAt: login.userTokenExpiresAt,
            refreshToken: null,
            refreshTokenExpiresAt: null,
            scopes: login.scopes,
          },
          extra: {
            pageId: page.id,
            pageName: page.name ?? null,
            igUserId,
            facebookUserId: login.facebookUserId,
          },
          ...(page.access_token ? { secrets: { pageToken: page.access_token } } : {}),
          grantKey: `meta:${login.facebookUserId}`,
        });
      }
      if (accounts.length === 0) {
        throw new PlatformError(
          'bad_request',
          'None of the Pages of this Facebook login has an Instagram professional account linked. Link one to a Page (Instagram settings → Account type and tools), then connect again.',
        );
      }
      return accounts;
    },

    /** A new ~60-day token from the current one; a dead token (190) means reconnecting. */
    async refresh(account) {
      const answer = await api.exchangeForLongLived(account.tokens.accessToken);
      return {
        accessToken: answer.access_token,
        accessTokenExpiresAt: expiresIn(answer.expires_in),
        refreshToken: null,
        refreshTokenExpiresAt: null,
        scopes: account.tokens.scopes,
      };
    },

    /** Removes Herald from the person's Facebook account (every account of that login). */
    revoke: (account) => revokeMetaLogin(api, account.tokens.accessToken),

    publishing: createInstagramPublishing(settings, options),
  };
}
