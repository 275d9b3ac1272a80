import type { NetworkSetupFacts } from '../setup-facts.js';
import { basicAuth } from '../oauth.js';
import { formPost, probeCode, type TokenProbe } from '../token-probe.js';
import { PINTEREST_SCOPES } from './limits.js';

/** Pinterest's own API sandbox, where apps with Trial access create pins (docs/networks.md#pinterest-access). */
export const PINTEREST_SANDBOX_API = 'https://api-sandbox.pinterest.com/v5';

/** What Pinterest's developer app needs (docs/networks.md#preflight). */
export const PINTEREST_SETUP: NetworkSetupFacts = {
  env: { clientId: 'PINTEREST_APP_ID', clientSecret: 'PINTEREST_APP_SECRET' },
  console: 'the Pinterest developer portal (developers.pinterest.com, My apps: the redirect URI)',
  products: [{ name: 'Pinterest API v5', scopes: [...PINTEREST_SCOPES] }],
  httpsRedirect: 'required',
  audit: {
    env: 'PINTEREST_UNAUDITED',
    restrictions: `apps with Trial access create pins and boards visible only to their creator, and Pinterest refuses their pins in production (code 29) unless they go to its API sandbox ${PINTEREST_SANDBOX_API}; apply for Standard access in the developer portal (a video of the OAuth flow and of a pin being created)`,
    refusedOtherwise: 'every pin created in production',
  },
  tokenNotes: [
    'Pinterest gives continuous refresh tokens to apps created since 2025-09-25: each refresh answers a new one good for 60 days, which Herald stores. An account left unrefreshed for 60 days must be reconnected.',
    `Trial access allows 1,000 requests a day for the whole app; pins made with it are visible only to their creator. The API sandbox is ${PINTEREST_SANDBOX_API}.`,
  ],
};

/** Pinterest's code exchange (api.ts): the app's id and secret in Basic auth. */
export const pinterestTokenProbe: TokenProbe = (t) =>
  formPost(
    `${t.urls.apiBase}/oauth/token`,
    { ...probeCode(t), grant_type: 'authorization_code' },
    { authorization: basicAuth(t.clientId, t.clientSecret) },
  );
