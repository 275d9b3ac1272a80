import type { NetworkSetupFacts } from '../setup-facts.js';
import { oauthCodeExchange, type TokenProbe } from '../token-probe.js';
import { YOUTUBE_SCOPES } from './limits.js';

/** What YouTube's developer app (a Google Cloud project) needs (docs/networks.md#preflight). */
export const YOUTUBE_SETUP: NetworkSetupFacts = {
  env: { clientId: 'YOUTUBE_CLIENT_ID', clientSecret: 'YOUTUBE_CLIENT_SECRET' },
  console:
    'the Google Cloud console (APIs & Services: YouTube Data API v3 enabled, an OAuth client of type Web application with the redirect URI, the OAuth consent screen in production)',
  products: [{ name: 'YouTube Data API v3', scopes: [...YOUTUBE_SCOPES] }],
  httpsRedirect: 'localhost-only',
  audit: {
    env: 'YOUTUBE_UNAUDITED',
    restrictions:
      'YouTube locks every video uploaded through an API project created after 2020-07-28 to private until the project passes its compliance audit',
    refusedOtherwise: 'every video that is not private',
  },
  tokenNotes: [
    'Google gives refresh tokens that expire after 7 days to apps whose OAuth consent screen is in testing mode (External audience): publish the app to "In production" in the Google Cloud console, or every YouTube channel must be reconnected each week.',
  ],
};

/** Google's code exchange (api.ts): the plain OAuth 2.0 form. */
export const youtubeTokenProbe: TokenProbe = (t) => oauthCodeExchange(t.urls.tokenUrl, t);
