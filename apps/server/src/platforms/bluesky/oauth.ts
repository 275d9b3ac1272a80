import {
  createECDH,
  createHash,
  createHmac,
  createPrivateKey,
  type JsonWebKey,
  randomBytes,
  sign,
} from 'node:crypto';
import { PlatformError } from '../errors.js';
import type { PlatformHttp } from '../types.js';

/**
 * AT Protocol OAuth for a confidential web client (docs/networks.md#bluesky-oauth,
 * https://atproto.com/specs/oauth): the client id is the HTTPS address of Herald's client
 * metadata document; the account's PDS names its authorization server; PAR, PKCE (S256) and DPoP
 * (ES256, with the servers' nonces) are all required; the client proves itself with a JWT signed
 * by its own key (`private_key_jwt`), published in Herald's JWKS.
 */

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** An ES256 key pair as JWKs: the private one (with `d`) and its public half. */
export interface EcKey {
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
}

/** A P-256 key made from 32 bytes of secret (a derived secret, so nothing has to be stored). */
export function ecKeyFrom(seed: Buffer): EcKey {
  // A scalar of 32 bytes is below the curve order with overwhelming likelihood; hashing again
  // covers the rest.
  let d = createHash('sha256').update(seed).digest();
  for (;;) {
    try {
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(d);
      const point = ecdh.getPublicKey();
      const publicJwk = {
        kty: 'EC',
        crv: 'P-256',
        x: b64url(point.subarray(1, 33)),
        y: b64url(point.subarray(33, 65)),
      };
      return { privateJwk: { ...publicJwk, d: b64url(d) }, publicJwk };
    } catch {
      d = createHash('sha256').update(d).digest();
    }
  }
}

/** A fresh key for one session's DPoP proofs. */
export const newDpopKey = () => ecKeyFrom(randomBytes(32));

/** RFC 7638 thumbprint of an EC public key: what a DPoP-bound token's `cnf.jkt` holds. */
export const jwkThumbprint = (jwk: JsonWebKey) =>
  b64url(
    createHash('sha256')
      .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
      .digest(),
  );

/** A compact JWS signed with ES256 (the raw r‖s signature JOSE asks for). */
export function signJwt(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  privateJwk: JsonWebKey,
): string {
  const input = `${b64url(JSON.stringify({ alg: 'ES256', ...header }))}.${b64url(JSON.stringify(payload))}`;
  const key = createPrivateKey({ key: privateJwk, format: 'jwk' });
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(signature)}`;
}

/** A DPoP proof for one request (RFC 9449): `htu` without query or fragment. */
export function dpopProof(
  key: EcKey,
  method: string,
  url: string,
  opts: { nonce?: string; accessToken?: string } = {},
): string {
  const target = new URL(url);
  return signJwt(
    { typ: 'dpop+jwt', jwk: key.publicJwk },
    {
      jti: b64url(randomBytes(16)),
      htm: method.toUpperCase(),
      htu: `${target.origin}${target.pathname}`,
      iat: Math.floor(Date.now() / 1000),
      ...(opts.nonce ? { nonce: opts.nonce } : {}),
      ...(opts.accessToken
        ? { ath: b64url(createHash('sha256').update(opts.accessToken).digest()) }
        : {}),
    },
    key.privateJwk,
  );
}

/** Whether a 400/401 answer asks for a (new) DPoP nonce. */
async function wantsNonce(res: Response): Promise<boolean> {
  if (res.status !== 400 && res.status !== 401) return false;
  if (/use_dpop_nonce/.test(res.headers.get('www-authenticate') ?? '')) return true;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { error?: string } | null;
  return body?.error === 'use_dpop_nonce';
}

/**
 * Sends a request with a DPoP proof, and once more with the server's nonce when it asks for one
 * (`use_dpop_nonce` and a `DPoP-Nonce` header). The last nonce each server gave is kept.
 */
export function dpopSender(http: PlatformHttp, nonces = new Map<string, string>()) {
  return async (
    key: EcKey,
    url: string,
    init: RequestInit & { method: string },
    accessToken?: string,
  ): Promise<Response> => {
    const origin = new URL(url).origin;
    const send = (nonce?: string) =>
      http(url, {
        ...init,
        headers: {
          ...(init.headers as Record<string, string>),
          dpop: dpopProof(key, init.method, url, {
            ...(nonce ? { nonce } : {}),
            ...(accessToken ? { accessToken } : {}),
          }),
          ...(accessToken ? { authorization: `DPoP ${accessToken}` } : {}),
        },
      });
    let res = await send(nonces.get(origin));
    const given = res.headers.get('dpop-nonce');
    if (given) nonces.set(origin, given);
    if (given && (await wantsNonce(res))) {
      res = await send(given);
      const again = res.headers.get('dpop-nonce');
      if (again) nonces.set(origin, again);
    }
    return res;
  };
}

/** What Herald is to authorization servers. */
export interface OAuthClient {
  /** The HTTPS address of Herald's client metadata document. */
  clientId: string;
  redirectUri: string;
  jwksUri: string;
  /** Herald's signing key (`private_key_jwt`) and the `kid` its JWKS gives it. */
  key: EcKey;
  kid: string;
  clientName: string;
  clientUri: string;
}

/** `atproto` plus the app-password-like access Herald needs (posts, blobs, notifications, chat). */
export const BLUESKY_OAUTH_SCOPE = 'atproto transition:generic transition:chat.bsky';

/** The client metadata document, served at `clientId` (https://atproto.com/specs/oauth). */
export const clientMetadata = (client: OAuthClient) => ({
  client_id: client.clientId,
  client_name: client.clientName,
  client_uri: client.clientUri,
  application_type: 'web',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  redirect_uris: [client.redirectUri],
  scope: BLUESKY_OAUTH_SCOPE,
  token_endpoint_auth_method: 'private_key_jwt',
  token_endpoint_auth_signing_alg: 'ES256',
  jwks_uri: client.jwksUri,
  dpop_bound_access_tokens: true,
});

/** Herald's public key set, served at `jwksUri`. */
export const clientJwks = (client: OAuthClient) => ({
  keys: [{ ...client.key.publicJwk, kid: client.kid, use: 'sig', alg: 'ES256' }],
});

/** Herald's client key: from configuration, or made from a secret Herald keeps. */
export function clientKeyOf(configured: string | undefined, secret: string): EcKey {
  if (configured) {
    const jwk = JSON.parse(configured) as JsonWebKey;
    // The public half names its members one by one: whatever else the configured key carries
    // (a private scalar under any name) never reaches the published key set.
    const publicJwk: JsonWebKey = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
    return { privateJwk: jwk, publicJwk };
  }
  return ecKeyFrom(createHmac('sha256', secret).update('bluesky-oauth-client-key').digest());
}

/**
 * Herald as an OAuth client of Bluesky, when it has a public https address (authorization
 * servers fetch the client id, which must be an https URL); null otherwise, and accounts connect
 * with app passwords. Its key is made from a secret Herald keeps, unless one is configured.
 */
export function oauthClientOf(settings: {
  apiPublicUrl?: string;
  clientKeySeed?: string;
  oauthKey?: string;
}): OAuthClient | null {
  const api = settings.apiPublicUrl?.replace(/\/+$/, '');
  if (!api?.startsWith('https://') || !settings.clientKeySeed) return null;
  return {
    clientId: `${api}/oauth/bluesky/client-metadata.json`,
    jwksUri: `${api}/oauth/bluesky/jwks.json`,
    redirectUri: `${api}/auth/bluesky/callback`,
    key: clientKeyOf(settings.oauthKey, settings.clientKeySeed),
    kid: 'herald-bluesky-1',
    clientName: 'Herald',
    clientUri: new URL(api).origin,
  };
}

/** The authorization server's metadata that Herald uses. */
export interface AuthServer {
  issuer: string;
  pushed_authorization_request_endpoint: string;
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint?: string;
}

export interface OAuthTokens {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in?: number;
  scope?: string;
  sub: string;
}

export function createBlueskyOAuth(http: PlatformHttp, client: OAuthClient) {
  const send = dpopSender(http);
  const json = async <T>(res: Response, what: string): Promise<T> => {
    const body = (await res.json().catch(() => null)) as
      (T & { error?: string; error_description?: string }) | null;
    if (!res.ok || !body) {
      const reason = body?.error_description ?? body?.error ?? `HTTP ${res.status}`;
      const kind =
        res.status >= 500
          ? 'transient'
          : body?.error === 'invalid_grant'
            ? 'reauth'
            : 'bad_request';
      throw new PlatformError(kind, `Bluesky's sign-in server refused ${what}: ${reason}.`, {
        status: res.status,
        ...(body?.error ? { code: body.error } : {}),
      });
    }
    return body;
  };

  /** The PDS's authorization server and its metadata (the issuer must name itself). */
  async function authServerOf(pds: string): Promise<AuthServer> {
    const resource = await json<{ authorization_servers?: string[] }>(
      await http(`${pds.replace(/\/+$/, '')}/.well-known/oauth-protected-resource`),
      'to name its sign-in server',
    );
    const issuer = resource.authorization_servers?.[0];
    if (!issuer)
      throw new PlatformError('bad_request', 'This Bluesky server names no sign-in server.');
    return authServerMetadata(issuer);
  }

  async function authServerMetadata(issuer: string): Promise<AuthServer> {
    const meta = await json<AuthServer>(
      await http(`${issuer.replace(/\/+$/, '')}/.well-known/oauth-authorization-server`),
      'to describe itself',
    );
    if (meta.issuer !== issuer)
      throw new PlatformError(
        'bad_request',
        `Bluesky's sign-in server ${issuer} describes itself as ${meta.issuer}.`,
      );
    return meta;
  }

  /** The client's proof of itself for one authorization server (`private_key_jwt`). */
  const clientAssertion = (issuer: string) => {
    const now = Math.floor(Date.now() / 1000);
    return {
      client_id: client.clientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: signJwt(
        { kid: client.kid },
        {
          iss: client.clientId,
          sub: client.clientId,
          aud: issuer,
          jti: b64url(randomBytes(16)),
          iat: now,
          exp: now + 60,
        },
        client.key.privateJwk,
      ),
    };
  };

  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

  return {
    authServerOf,
    authServerMetadata,

    /**
     * Pushes the authorization request (PAR, with PKCE and a DPoP proof) and answers the address
     * the person is sent to: the authorization endpoint with only `client_id` and `request_uri`.
     */
    async authorize(input: {
      server: AuthServer;
      dpopKey: EcKey;
      state: string;
      codeChallenge: string;
      loginHint?: string;
    }): Promise<string> {
      const { server } = input;
      const res = await send(
        input.dpopKey,
        server.pushed_authorization_request_endpoint,
        form({
          ...clientAssertion(server.issuer),
          response_type: 'code',
          redirect_uri: client.redirectUri,
          scope: BLUESKY_OAUTH_SCOPE,
          state: input.state,
          code_challenge: input.codeChallenge,
          code_challenge_method: 'S256',
          ...(input.loginHint ? { login_hint: input.loginHint } : {}),
        }),
      );
      const { request_uri } = await json<{ request_uri: string }>(res, 'the sign-in request');
      const url = new URL(server.authorization_endpoint);
      url.searchParams.set('client_id', client.clientId);
      url.searchParams.set('request_uri', request_uri);
      return url.toString();
    },

    /** The code for DPoP-bound tokens, with the same DPoP key as the PAR. */
    async exchange(input: {
      server: AuthServer;
      dpopKey: EcKey;
      code: string;
      codeVerifier: string;
    }): Promise<OAuthTokens> {
      const res = await send(
        input.dpopKey,
        input.server.token_endpoint,
        form({
          ...clientAssertion(input.server.issuer),
          grant_type: 'authorization_code',
          code: input.code,
          redirect_uri: client.redirectUri,
          code_verifier: input.codeVerifier,
        }),
      );
      return json<OAuthTokens>(res, 'the sign-in');
    },

    /** New tokens for the refresh token (single use: it rotates), with the session's DPoP key. */
    async refresh(input: {
      server: AuthServer;
      dpopKey: EcKey;
      refreshToken: string;
    }): Promise<OAuthTokens> {
      const res = await send(
        input.dpopKey,
        input.server.token_endpoint,
        form({
          ...clientAssertion(input.server.issuer),
          grant_type: 'refresh_token',
          refresh_token: input.refreshToken,
        }),
      );
      return json<OAuthTokens>(res, 'to renew the session');
    },

    async revoke(input: { server: AuthServer; dpopKey: EcKey; token: string }) {
      if (!input.server.revocation_endpoint) return;
      await send(
        input.dpopKey,
        input.server.revocation_endpoint,
        form({ ...clientAssertion(input.server.issuer), token: input.token }),
      );
    },
  };
}

export type BlueskyOAuth = ReturnType<typeof createBlueskyOAuth>;
