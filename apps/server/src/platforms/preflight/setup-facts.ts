/**
 * What each network's developer app must have for Herald to connect accounts with it
 * (docs/networks.md#preflight). Data, not code: the preflight (`herald doctor`, /admin/network-setup)
 * reads the scopes Herald actually sends from each adapter's authorize URL and compares them with
 * the products below. A network added to the catalog without an entry here still gets the
 * generic checks (credentials, redirect URI); a second kind of app for one network (a LinkedIn
 * Page app beside the personal one) is one more entry reusing the same products.
 */
export interface NetworkProduct {
  /** The product (or use case, or permission set) as the network's developer console names it. */
  name: string;
  /** Scopes this product grants. */
  scopes: readonly string[];
  /** The network allows no other product on an app that has this one (LinkedIn's Community Management API). */
  exclusive?: boolean;
}

export interface NetworkSetupFacts {
  /** The environment variables holding the client id and secret. */
  env: { clientId: string; clientSecret: string };
  /** Where an operator registers the app and its redirect URI. */
  console: string;
  products: readonly NetworkProduct[];
  /** The network refuses redirect URIs that are not https. */
  httpsRedirect?: 'required' | 'localhost-only';
  /** What the network pulls from Herald's media URLs, when not every post's media. */
  pulledMedia?: string;
  /** The network checks the ownership of the domain it pulls media from (TikTok photo posts). */
  verifiesMediaDomain?: boolean;
  /** The kind of app this entry is, when a network has several (LinkedIn). */
  appKind?: string;
  /** The network restricts apps it has not audited; `env` tells Herald the app is not audited yet. */
  audit?: { env: string; restrictions: string; refusedOtherwise: string };
  /** The network retires its API versions on a date: which of `config.apiVersions` it follows. */
  apiVersion?: 'linkedin' | 'meta';
}

const META_LOGIN = 'Facebook Login for Business';

/** LinkedIn's products by scope (https://learn.microsoft.com/en-us/linkedin/shared/authentication/getting-access). */
export const LINKEDIN_PRODUCTS: readonly NetworkProduct[] = [
  { name: 'Sign In with LinkedIn using OpenID Connect', scopes: ['openid', 'profile', 'email'] },
  { name: 'Share on LinkedIn', scopes: ['w_member_social'] },
  {
    name: 'Community Management API',
    scopes: ['r_organization_social', 'w_organization_social', 'rw_organization_admin'],
    exclusive: true,
  },
];

export const NETWORK_SETUP_FACTS: Record<string, NetworkSetupFacts> = {
  x: {
    env: { clientId: 'X_CLIENT_ID', clientSecret: 'X_CLIENT_SECRET' },
    console: 'the X developer portal (the app’s User authentication settings)',
    products: [
      {
        name: 'OAuth 2.0 user authentication as a “Web App, Automated App or Bot” with “Read and write and Direct message” permissions',
        scopes: [
          'tweet.read',
          'tweet.write',
          'users.read',
          'media.write',
          'offline.access',
          'dm.read',
          'dm.write',
          'tweet.moderate.write',
        ],
      },
    ],
  },
  facebook: {
    apiVersion: 'meta',
    env: { clientId: 'META_APP_ID', clientSecret: 'META_APP_SECRET' },
    console: 'the Meta app dashboard (Facebook Login for Business, Valid OAuth Redirect URIs)',
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
    httpsRedirect: 'localhost-only',
  },
  instagram: {
    apiVersion: 'meta',
    env: { clientId: 'META_APP_ID', clientSecret: 'META_APP_SECRET' },
    console: 'the Meta app dashboard (Facebook Login for Business, Valid OAuth Redirect URIs)',
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
    httpsRedirect: 'localhost-only',
  },
  threads: {
    env: { clientId: 'THREADS_APP_ID', clientSecret: 'THREADS_APP_SECRET' },
    console:
      'the Meta app dashboard (the “Access the Threads API” use case, Redirect Callback URLs)',
    products: [
      {
        name: 'the “Access the Threads API” use case',
        scopes: [
          'threads_basic',
          'threads_content_publish',
          'threads_manage_replies',
          'threads_read_replies',
          'threads_delete',
          'threads_manage_insights',
          'threads_manage_mentions',
        ],
      },
    ],
    httpsRedirect: 'required',
  },
  tiktok: {
    env: { clientId: 'TIKTOK_CLIENT_KEY', clientSecret: 'TIKTOK_CLIENT_SECRET' },
    console: 'the TikTok developer portal (Login Kit, Redirect URI)',
    products: [
      { name: 'Login Kit', scopes: ['user.info.basic', 'user.info.stats', 'video.list'] },
      {
        name: 'Content Posting API with Direct Post enabled',
        scopes: ['video.publish', 'video.upload'],
      },
    ],
    httpsRedirect: 'required',
    verifiesMediaDomain: true,
    pulledMedia: 'the images of photo posts',
    audit: {
      env: 'TIKTOK_UNAUDITED',
      restrictions:
        'posts go out visible to their creator only (SELF_ONLY), at most 5 people may post in 24 hours and their accounts must be private',
      refusedOtherwise: 'every post that is not private',
    },
  },
  // LinkedIn's two connect kinds (docs/decisions/0012-linkedin-connect-kinds.md), by config key.
  linkedin: {
    apiVersion: 'linkedin',
    env: { clientId: 'LINKEDIN_CLIENT_ID', clientSecret: 'LINKEDIN_CLIENT_SECRET' },
    console: 'the LinkedIn developer portal (Auth tab, Authorized redirect URLs)',
    products: LINKEDIN_PRODUCTS,
    appKind: 'personal profiles',
  },
  linkedinPage: {
    apiVersion: 'linkedin',
    env: { clientId: 'LINKEDIN_PAGE_CLIENT_ID', clientSecret: 'LINKEDIN_PAGE_CLIENT_SECRET' },
    console: 'the LinkedIn developer portal of the Page app (Auth tab, Authorized redirect URLs)',
    products: LINKEDIN_PRODUCTS,
    appKind: 'organization Pages',
  },
};

/** The variable names of a network without an entry: SLUG_CLIENT_ID and SLUG_CLIENT_SECRET. */
export function setupFactsFor(slug: string): NetworkSetupFacts {
  const known = NETWORK_SETUP_FACTS[slug];
  if (known) return known;
  const prefix = slug.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  return {
    env: { clientId: `${prefix}_CLIENT_ID`, clientSecret: `${prefix}_CLIENT_SECRET` },
    console: 'the network’s developer console',
    products: [],
  };
}
