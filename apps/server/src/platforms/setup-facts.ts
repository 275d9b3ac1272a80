import type { Config } from '../config.js';

/**
 * What a network's developer app must have for Herald to connect accounts with it
 * (docs/networks.md#preflight), stated by each network module (`setup`). Data, not code: the
 * preflight (`herald doctor`, /admin/network-setup) reads the scopes Herald actually sends from
 * each adapter's authorize URL and compares them with the products. A second kind of app for
 * one network (a LinkedIn Page app beside the personal one) is its connect kind's own `setup`.
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
  /**
   * Networks made of many servers (Mastodon) need no developer app of the operator's: Herald
   * registers its own app on each server the first time someone connects there. Then `env` names
   * no variable Herald reads, and this sentence says so in the preflight. Outside production such
   * a network connects through its sandbox's servers, unless `realServersEnv` is set to true;
   * in production always through the real ones.
   */
  perServerApps?: string;
  /**
   * The flag (`<NAME>_REAL_SERVERS`) that connects a network of many servers on the real ones
   * outside production too: what setting the credentials is to the other networks.
   */
  realServersEnv?: string;
  /**
   * With `perServerApps`, when Herald registers no app either (Bluesky: people sign in with their
   * own app passwords): the live preflight's sentence saying why there is nothing to probe.
   */
  noProbe?: string;
  /**
   * A network whose accounts may also sign in through its own sign-in page, with Herald as an
   * OAuth client known by its public https address (Bluesky's AT Protocol OAuth: the client id is
   * the address of Herald's client metadata document). `keyEnv` names the variable of the ES256
   * key Herald signs with; unset, Herald makes one from a secret it keeps. The preflight says
   * whether the sign-in is offered and which key signs.
   */
  addressedOAuthClient?: { keyEnv: string };
  /**
   * The environment variables holding the client id and secret: Herald reads the credentials
   * from them and the preflight names them. Each ends in `_CLIENT_ID`, `_CLIENT_KEY` or `_APP_ID`,
   * and `_CLIENT_SECRET` or `_APP_SECRET`, the shapes config.ts reads.
   */
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
  /**
   * The network restricts apps it has not audited; `env` (`<NAME>_UNAUDITED`, a flag) tells
   * Herald the app is not audited yet.
   */
  audit?: { env: string; restrictions: string; refusedOtherwise: string };
  /**
   * What the network does to an app's tokens that an operator must know (Google: refresh tokens
   * of an app in testing mode die after 7 days): said by the preflight once credentials are set.
   */
  tokenNotes?: readonly string[];
  /**
   * How the network's inbox learns of news beyond its poll, as the preflight says it: pushed, when
   * the operator set the push up, or read on the poll's schedule.
   */
  inboxDelivery?(config: Pick<Config, 'apiPublicUrl'> & Partial<Pick<Config, 'inbox'>>): string;
  /** The network retires its API versions on a date: which of `config.apiVersions` it follows. */
  apiVersion?: 'linkedin' | 'meta';
}
