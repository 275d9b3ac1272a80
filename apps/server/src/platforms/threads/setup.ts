import type { NetworkSetupFacts } from '../setup-facts.js';
import { oauthCodeExchange, type TokenProbe } from '../token-probe.js';

/** What the Threads app needs (docs/networks.md#preflight). */
export const THREADS_SETUP: NetworkSetupFacts = {
  env: { clientId: 'THREADS_APP_ID', clientSecret: 'THREADS_APP_SECRET' },
  console: 'the Meta app dashboard (the “Access the Threads API” use case, Redirect Callback URLs)',
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
};

/** Threads' code exchange (api.ts): plain OAuth at the Graph host. */
export const threadsTokenProbe: TokenProbe = (t) =>
  oauthCodeExchange(`${t.urls.graphBase}/oauth/access_token`, t);
