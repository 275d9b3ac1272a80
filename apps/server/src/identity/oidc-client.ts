import * as client from 'openid-client';
import type { IdentityConfig } from '../config.js';
import { AppError } from '../lib/app-error.js';

/** Who the identity provider says signed in (the users module finds or creates the user). */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean | undefined;
  name: string | undefined;
  picture: string | undefined;
}

export interface RelyingPartyOptions {
  /** Where the identity provider sends the browser back (…/auth/google/callback). */
  redirectUri: string;
  /** Issuer, client id and secret; for the built-in provider they are known only at start. */
  provider: { issuer: string; clientId: string; clientSecret: string };
  /** Lets the server answer requests to its own built-in provider without a network round trip. */
  fetch?: client.CustomFetch;
  /** Extra `prompt` for the authorization request, e.g. Google's select_account. */
  prompt?: string;
}

/** The pieces that must survive the round trip through the identity provider (kept in a signed cookie). */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo?: string;
}

/**
 * The OpenID Connect relying party. The same code path serves Google, any issuer, and the
 * built-in development provider: authorization code with PKCE, state and nonce checked.
 */
export class RelyingParty {
  private configuration: Promise<client.Configuration> | null = null;

  constructor(private readonly options: RelyingPartyOptions) {}

  private discover(): Promise<client.Configuration> {
    if (!this.configuration) {
      const { issuer, clientId, clientSecret } = this.options.provider;
      const insecure = new URL(issuer).protocol === 'http:';
      this.configuration = client
        .discovery(new URL(issuer), clientId, clientSecret, undefined, {
          ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
          ...(this.options.fetch ? { [client.customFetch]: this.options.fetch } : {}),
        })
        .then((config) => {
          if (this.options.fetch) config[client.customFetch] = this.options.fetch;
          return config;
        })
        .catch((err: unknown) => {
          // Try discovery again next time instead of caching the failure.
          this.configuration = null;
          throw new AppError(
            'UNAVAILABLE',
            'The sign-in provider cannot be reached right now. Please try again in a moment.',
            { reason: err instanceof Error ? err.message : String(err) },
          );
        });
    }
    return this.configuration;
  }

  async start(returnTo?: string): Promise<{ url: URL; pending: PendingSignIn }> {
    const config = await this.discover();
    const codeVerifier = client.randomPKCECodeVerifier();
    const pending: PendingSignIn = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier,
      ...(returnTo ? { returnTo } : {}),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.options.redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
      ...(this.options.prompt ? { prompt: this.options.prompt } : {}),
    });
    return { url, pending };
  }

  /** Completes the flow; throws AppError with a sentence when anything does not check out. */
  async finish(callbackUrl: URL, pending: PendingSignIn): Promise<VerifiedIdentity> {
    const config = await this.discover();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw new AppError('UNAUTHENTICATED', 'Sign-in could not be completed. Please try again.', {
        reason: err instanceof Error ? err.message : String(err),
      });
    }
    const claims = tokens.claims();
    if (!claims)
      throw new AppError('UNAUTHENTICATED', 'Sign-in could not be completed. Please try again.');
    // Email and name arrive from userinfo, not the ID token, with some providers.
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    const pick = (key: string) => {
      const v = info[key] ?? claims[key];
      return typeof v === 'string' ? v : undefined;
    };
    const verified = info.email_verified ?? claims.email_verified;
    return {
      issuer: config.serverMetadata().issuer,
      subject: claims.sub,
      email: pick('email'),
      emailVerified: typeof verified === 'boolean' ? verified : undefined,
      name: pick('name'),
      picture: pick('picture'),
    };
  }
}

export function describeProvider(identity: IdentityConfig) {
  return { kind: identity.kind, label: identity.label };
}
