import type { Config } from '../config.js';
import type { ConnectKind, NetworkModule } from './network-module.js';
import type { NetworkSetupFacts } from './setup-facts.js';

type NetworkEnvConfig = Pick<Config, 'networkEnv'>;

/**
 * The developer app a connect kind connects with, or the network's one app without kinds: its
 * `env` and `audit` name the variables Herald reads for it, the same names the preflight prints.
 */
export const appOf = (
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  module: NetworkModule<any>,
  kind: ConnectKind | null | undefined,
): NetworkSetupFacts => kind?.setup ?? module.setup;

/**
 * The app's client id and secret, or null when they are not both configured. A network of
 * per-server apps (`perServerApps`) has none to configure: in production it is always
 * configured (with no shared credentials, empty strings); elsewhere only when its
 * `realServersEnv` flag says so, and otherwise it runs against its sandbox.
 */
export const appCredentials = (
  config: NetworkEnvConfig & Partial<Pick<Config, 'isProduction'>>,
  app: NetworkSetupFacts,
) => {
  if (app.perServerApps)
    return config.isProduction ||
      (app.realServersEnv && config.networkEnv.realServers(app.realServersEnv))
      ? { clientId: '', clientSecret: '' }
      : null;
  return config.networkEnv.credentials(app.env);
};

/** Whether the app's `audit` variable says the network has not audited it yet. */
export const isUnaudited = (config: NetworkEnvConfig, app: NetworkSetupFacts) =>
  app.audit ? config.networkEnv.unaudited(app.audit.env) : false;

/**
 * The key a network's OAuth client known by its address signs with (`addressedOAuthClient`), as
 * configured (JSON, checked at start), or undefined: Herald makes one from a secret it keeps.
 */
export const oauthClientKey = (config: NetworkEnvConfig, app: NetworkSetupFacts) =>
  app.addressedOAuthClient
    ? config.networkEnv.oauthKey(app.addressedOAuthClient.keyEnv)
    : undefined;
