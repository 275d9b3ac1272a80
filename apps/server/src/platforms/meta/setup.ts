import type { NetworkSetupFacts } from '../setup-facts.js';
import { probeCode, type TokenProbe } from '../token-probe.js';

/** Facebook and Instagram connect through one Meta app. */
const META_APP = {
  env: { clientId: 'META_APP_ID', clientSecret: 'META_APP_SECRET' },
  console: 'the Meta app dashboard (Facebook Login for Business, Valid OAuth Redirect URIs)',
  httpsRedirect: 'localhost-only',
  apiVersion: 'meta',
} as const satisfies Omit<NetworkSetupFacts, 'products'>;

const META_LOGIN = 'Facebook Login for Business';

/** What the Meta app needs for Facebook Pages (docs/networks.md#preflight). */
export const FACEBOOK_SETUP: NetworkSetupFacts = {
  ...META_APP,
  products: [
    {
      name: `${META_LOGIN} with the Pages permissions`,
      scopes: [
        'pages_show_list',
        'pages_manage_posts',
        'pages_read_engagement',
        'pages_manage_engagement',
        'pages_read_user_content',
        'publish_video',
        'read_insights',
        'business_management',
      ],
    },
  ],
};

/** What the Meta app needs for Instagram business accounts (docs/networks.md#preflight). */
export const INSTAGRAM_SETUP: NetworkSetupFacts = {
  ...META_APP,
  products: [
    {
      name: 'Instagram API with Facebook Login',
      scopes: [
        'instagram_basic',
        'instagram_content_publish',
        'instagram_manage_comments',
        'instagram_manage_insights',
      ],
    },
    {
      name: `${META_LOGIN} with the Pages permissions`,
      scopes: ['pages_show_list', 'pages_read_engagement', 'business_management'],
    },
  ],
};

/** Graph's code exchange (meta/login.ts): a GET with the client in the query. */
export const metaTokenProbe: TokenProbe = (t) => {
  const url = new URL(`${t.urls.graphBase}/${t.urls.graphVersion}/oauth/access_token`);
  for (const [k, v] of Object.entries({
    ...probeCode(t),
    client_id: t.clientId,
    client_secret: t.clientSecret,
  }))
    url.searchParams.set(k, v);
  return { url: url.toString(), init: { method: 'GET' } };
};
