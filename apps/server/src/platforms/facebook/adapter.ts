import { PlatformError } from '../errors.js';
import { createGraphApi, type GraphApi } from '../meta/api.js';
import type { MetaPublishingOptions } from '../meta/limits.js';
import { revokeMetaLogin, signInWithCode } from '../meta/login.js';
import type { MetaUrls } from '../meta/urls.js';
import type { AdapterSettings, ConnectableAccount, PlatformAdapter } from '../types.js';
import { listBusinessPages, listManagedPages, type FacebookPage } from './api.js';
import { createFacebookPublishing } from './publishing.js';

/**
 * Only the permissions Herald uses (docs/networks.md#facebook-oauth): listing Pages (also through
 * business portfolios), posting, reading posts and comments, answering and moderating comments,
 * videos, the Page's insights for analytics, and its Messenger inbox. Fewer permissions make App Review easier.
 */
export const FACEBOOK_SCOPES = [
  'pages_show_list',
  'business_management',
  'pages_manage_posts',
  'pages_read_engagement',
  'pages_read_user_content',
  'pages_manage_engagement',
  'publish_video',
  'read_insights',
  // The inbox (docs/inbox.md#facebook-and-instagram): Messenger, and the webhook subscription.
  'pages_messaging',
  'pages_manage_metadata',
];

/** Why a Page cannot be connected, in one sentence; null when it can. */
function unavailableReason(page: FacebookPage): string | null {
  const name = page.name ?? page.id;
  if (page.tasks && !page.tasks.includes('CREATE_CONTENT'))
    return `Your role on ${name} does not let you create content (Facebook's CREATE_CONTENT task), so Herald cannot post there. Ask a Page admin for full control or the "Create content" permission, then connect again.`;
  if (typeof page.access_token !== 'string' || !page.access_token)
    return `Facebook gave Herald no Page access for ${name}. Connect again and allow access to this Page.`;
  return null;
}

/**
 * Every Page the person can reach: with a personal role (`/me/accounts`) and through business
 * portfolios, once each. A person who declined `business_management` still gets their own Pages.
 */
async function reachablePages(api: GraphApi, userToken: string) {
  const pages = await listManagedPages(api, userToken);
  let viaBusiness: FacebookPage[] = [];
  try {
    viaBusiness = await listBusinessPages(api, userToken);
  } catch (err) {
    if (!(err instanceof PlatformError) || err.kind === 'transient' || err.kind === 'rate_limited')
      throw err;
  }
  for (const page of viaBusiness)
    if (!pages.some((known) => known.id === page.id)) pages.push(page);
  return pages;
}

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
      const pages = await reachablePages(api, login.userToken);
      const accounts: ConnectableAccount[] = pages.map((page) => {
        const unavailable = unavailableReason(page);
        return {
          externalId: page.id,
          username: null,
          name: page.name ?? null,
          pictureUrl: page.picture?.data?.url ?? null,
          ...(unavailable ? { unavailable } : {}),
          tokens: {
            accessToken: unavailable ? '' : page.access_token!,
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
        };
      });
      const usable = accounts.filter((a) => !a.unavailable);
      if (usable.length === 0) {
        const reasons = accounts.map((a) => a.unavailable).join(' ');
        throw new PlatformError(
          'bad_request',
          `This Facebook login manages no Pages Herald can use. ${reasons || 'Create a Page or ask for a role on one, then connect again and allow access to it.'}`.trim(),
        );
      }
      // Pages that cannot be connected are still shown, disabled, with the reason.
      return accounts;
    },

    /** Removes Herald from the person's Facebook account (all Pages of that login). */
    revoke: (account) => revokeMetaLogin(api, account.secrets.userToken),

    publishing: createFacebookPublishing(settings, options),
  };
}
