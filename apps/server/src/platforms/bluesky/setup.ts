import type { NetworkSetupFacts } from '../setup-facts.js';
import type { TokenProbe } from '../token-probe.js';

/**
 * Bluesky needs no developer app (docs/networks.md#bluesky-connect): each person connects with
 * their handle and an app password, or, where Herald has a public https address, through their
 * server's own sign-in page (AT Protocol OAuth, docs/networks.md#bluesky-oauth), where Herald is
 * known by that address. Herald talks to their own PDS. The client id and secret variables below
 * are never read; the OAuth key variable is.
 */
export const BLUESKY_SETUP: NetworkSetupFacts = {
  env: { clientId: 'BLUESKY_CLIENT_ID', clientSecret: 'BLUESKY_CLIENT_SECRET' },
  perServerApps:
    'Bluesky needs no developer app and no variables: each person connects with their handle and an app password (or signs in on their server, where Herald has a public https address), and Herald talks to the server (PDS) their account is on.',
  realServersEnv: 'BLUESKY_REAL_SERVERS',
  addressedOAuthClient: { keyEnv: 'BLUESKY_OAUTH_PRIVATE_KEY' },
  noProbe:
    'Nothing to probe: Bluesky accounts sign in with their own app passwords or on their own server, which Herald finds from each account.',
  console: 'nothing to register: people create an app password in Bluesky and type it in Herald',
  products: [{ name: 'App password sign-in on the account’s own server', scopes: [] }],
};

/** No app to probe: sign-ins use each person's app password or their own server's sign-in page. */
export const blueskyTokenProbe: TokenProbe = () => null;
