import type { PlatformName } from '@herald/contract';

/** fetch, as adapters receive it: requests to a sandbox are answered in-process. */
export type PlatformHttp = (url: string, init?: RequestInit) => Promise<Response>;

export interface TokenSet {
  accessToken: string;
  accessTokenExpiresAt: Date | null;
  refreshToken: string | null;
  refreshTokenExpiresAt: Date | null;
  scopes: string[];
}

/** One account a sign-in at the network can connect (a Facebook login may offer several Pages). */
export interface ConnectableAccount {
  externalId: string;
  username: string | null;
  name: string | null;
  pictureUrl: string | null;
  tokens: TokenSet;
  /** Non-secret data to keep (linked Page id, API version…). */
  extra?: Record<string, unknown>;
  /** Secret data to keep encrypted beside the tokens (a Page's user token…). */
  secrets?: Record<string, string>;
  /**
   * Accounts connected through one grant at the network (one Facebook or LinkedIn login) share
   * this key: revoking Herald's access for one of them revokes it for all.
   */
  grantKey?: string;
}

/** What Herald stored for a connected account, handed back to the adapter. */
export interface StoredAccount {
  externalId: string;
  tokens: TokenSet;
  extra: Record<string, unknown>;
  secrets: Record<string, string>;
}

export interface AuthorizeInput {
  redirectUri: string;
  state: string;
  /** S256 challenge of the verifier Herald keeps; adapters of networks without PKCE ignore it. */
  codeChallenge: string;
}

export interface CodeExchangeInput {
  code: string;
  redirectUri: string;
  codeVerifier: string;
}

/**
 * The connection half of a network adapter (publishing comes with the publishing engine).
 * Every URL it calls comes from its settings, so the same code runs against the real network
 * and against its sandbox.
 */
export interface PlatformAdapter {
  readonly name: PlatformName;
  /** The network's authorize page for this sign-in. */
  authorizeUrl(input: AuthorizeInput): string;
  /**
   * Exchanges the code (and for short-lived tokens, trades them for long-lived ones), then lists
   * the accounts this sign-in can connect — usually one; Pages or business accounts may be many.
   */
  connect(input: CodeExchangeInput): Promise<ConnectableAccount[]>;
  /** New tokens before the old ones expire; absent when the network cannot refresh. */
  refresh?(account: StoredAccount): Promise<TokenSet>;
  /** Revokes Herald's access at the network, where the network has an endpoint for it. */
  revoke?(account: StoredAccount): Promise<void>;
}

/** The settings an adapter is built from: where the network lives and who we are to it. */
export interface AdapterSettings<Urls> {
  clientId: string;
  clientSecret: string;
  urls: Urls;
  http: PlatformHttp;
}
