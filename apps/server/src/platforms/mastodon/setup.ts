import type { NetworkSetupFacts } from '../setup-facts.js';
import type { TokenProbe } from '../token-probe.js';
import { MASTODON_SCOPES } from './limits.js';

/**
 * Mastodon needs no developer app of the operator's (docs/networks.md#mastodon-oauth): Herald
 * registers its own on each server the first time someone connects there, so the credential
 * variables below are never read. Outside production it connects on the sandbox's servers
 * unless MASTODON_REAL_SERVERS=true.
 */
export const MASTODON_SETUP: NetworkSetupFacts = {
  env: { clientId: 'MASTODON_CLIENT_ID', clientSecret: 'MASTODON_CLIENT_SECRET' },
  perServerApps:
    'Mastodon needs no developer app and no credentials: Herald registers itself on each server (POST /api/v1/apps) the first time someone connects there, and keeps that app encrypted.',
  realServersEnv: 'MASTODON_REAL_SERVERS',
  console: 'nothing to register: each Mastodon server registers Herald when someone connects there',
  products: [{ name: 'The app Herald registers on each server', scopes: [...MASTODON_SCOPES] }],
};

/** No shared app to probe: each server's app is registered when first used. */
export const mastodonTokenProbe: TokenProbe = () => null;
