import type { NetworkSetupFacts } from '../setup-facts.js';
import type { TokenProbe } from '../token-probe.js';

/**
 * Bluesky needs no developer app (docs/networks.md#bluesky-connect): each person connects with
 * their handle and an app password, and Herald talks to their own PDS. The variables below are
 * never read.
 */
export const BLUESKY_SETUP: NetworkSetupFacts = {
  env: { clientId: 'BLUESKY_CLIENT_ID', clientSecret: 'BLUESKY_CLIENT_SECRET' },
  perServerApps:
    'Bluesky needs no developer app and no variables: each person connects with their handle and an app password, and Herald talks to the server (PDS) their account is on.',
  realServersEnv: 'BLUESKY_REAL_SERVERS',
  noProbe:
    'Nothing to probe: Bluesky accounts sign in with their own app passwords, on the server their account is on.',
  console: 'nothing to register: people create an app password in Bluesky and type it in Herald',
  products: [{ name: 'App password sign-in on the account’s own server', scopes: [] }],
};

/** No app to probe: sign-ins use each person's app password. */
export const blueskyTokenProbe: TokenProbe = () => null;
