import type { NetworkSetupFacts } from '../setup-facts.js';
import { formPost, PROBE_CODE, probeCode, type TokenProbe } from '../token-probe.js';

/** What X's developer app needs (docs/networks.md#preflight). */
export const X_SETUP: NetworkSetupFacts = {
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
};

/** X's code exchange (api.ts): the client in Basic auth, PKCE's verifier in the form. */
export const xTokenProbe: TokenProbe = (t) =>
  formPost(
    `${t.urls.apiBase}/2/oauth2/token`,
    { ...probeCode(t), grant_type: 'authorization_code', code_verifier: PROBE_CODE },
    {
      authorization: `Basic ${Buffer.from(`${t.clientId}:${t.clientSecret}`).toString('base64')}`,
    },
  );
