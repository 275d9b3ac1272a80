import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHarness, startSandboxHarness } from '../../test/sandbox-harness.js';
import { PlatformError } from '../errors.js';
import { publishInOneGo } from '../publish-steps.js';
import type { StoredAccount } from '../types.js';
import { type BlueskyUrls, createBlueskyApi } from './api.js';
import { network as bluesky } from './index.js';
import {
  clientJwks,
  clientKeyOf,
  clientMetadata,
  createBlueskyOAuth,
  dpopSender,
  newDpopKey,
  type OAuthClient,
} from './oauth.js';
import { createBlueskyPublishing } from './publishing.js';

/**
 * AT Protocol OAuth (docs/networks.md#bluesky-oauth) between Herald's client and the Bluesky
 * emulator's authorization server: discovery from the PDS, PAR with PKCE and DPoP (and the
 * server's nonce), `private_key_jwt` checked against the JWKS Herald serves, DPoP-bound tokens
 * used at the PDS, and single-use refresh tokens.
 */
let h: SandboxHarness<BlueskyUrls>;
let documents: Server;
let client: OAuthClient;
let http: (url: string, init?: RequestInit) => Promise<Response>;

beforeAll(async () => {
  // Herald's client metadata document and JWKS, as its API serves them: the emulator reads them
  // at Herald's address (and nowhere else), which the harness carries to this stand-in.
  documents = createServer((req, res) => {
    const body =
      req.url === '/oauth/bluesky/client-metadata.json'
        ? clientMetadata(client)
        : req.url === '/oauth/bluesky/jwks.json'
          ? clientJwks(client)
          : null;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  const standIn = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  h = await startSandboxHarness(bluesky, { heraldStandIn: () => standIn });
  const publicOrigin = new URL(h.heraldApi).origin;
  http = (url, init) => fetch(String(url).replace(publicOrigin, h.origin), init);
  client = {
    clientId: `${h.heraldApi}/oauth/bluesky/client-metadata.json`,
    jwksUri: `${h.heraldApi}/oauth/bluesky/jwks.json`,
    redirectUri: `${h.heraldApi}/auth/bluesky/callback`,
    key: clientKeyOf(undefined, 'a secret of this Herald'),
    kid: 'herald-1',
    clientName: 'Herald',
    clientUri: publicOrigin,
  };
}, 60_000);

afterAll(async () => {
  documents?.close();
  await h?.close();
});

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** The person's part: the sign-in page, then Allow; answers the redirect's parameters. */
async function allow(authorizeUrl: string, handle: string) {
  const page = await http(authorizeUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Sign in with Bluesky');
  const url = new URL(authorizeUrl);
  const answer = await http(`${url.origin}${url.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      request_uri: url.searchParams.get('request_uri')!,
      client_id: url.searchParams.get('client_id')!,
      handle,
      decision: 'allow',
    }).toString(),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!).searchParams;
}

describe('Bluesky OAuth against the emulator', () => {
  it('signs in with PAR, PKCE, DPoP and a client assertion, then publishes and refreshes with DPoP-bound tokens', async () => {
    const oauth = createBlueskyOAuth(http, client);
    const api = createBlueskyApi({ ...h.settings, http });
    const identity = await api.resolveIdentity('olive.bsky.sandbox');
    const server = await oauth.authServerOf(identity.pds);
    expect(server.issuer).toBe(identity.pds);

    const dpopKey = newDpopKey();
    const verifier = 'v'.repeat(20) + 'erifier-of-this-sign-in-0123456789';
    const authorizeUrl = await oauth.authorize({
      server,
      dpopKey,
      state: 'state-1',
      codeChallenge: challengeOf(verifier),
      loginHint: 'olive.bsky.sandbox',
    });
    // Only the client and the pushed request travel in the browser's address.
    expect([...new URL(authorizeUrl).searchParams.keys()].sort()).toEqual([
      'client_id',
      'request_uri',
    ]);
    const back = await allow(authorizeUrl, 'olive.bsky.sandbox');
    expect(back.get('state')).toBe('state-1');
    expect(back.get('iss')).toBe(server.issuer);

    // Another DPoP key than the PAR's cannot trade the code.
    const stolen = await oauth
      .exchange({ server, dpopKey: newDpopKey(), code: back.get('code')!, codeVerifier: verifier })
      .catch((e: unknown) => e);
    expect(stolen).toBeInstanceOf(PlatformError);
    expect((stolen as PlatformError).message).toMatch(/DPoP key mismatch/);

    // The code was spent by that try, as codes are single-use: sign in again.
    const again = await allow(
      await oauth.authorize({
        server,
        dpopKey,
        state: 'state-2',
        codeChallenge: challengeOf(verifier),
      }),
      'olive.bsky.sandbox',
    );
    const tokens = await oauth.exchange({
      server,
      dpopKey,
      code: again.get('code')!,
      codeVerifier: verifier,
    });
    expect(tokens).toMatchObject({ token_type: 'DPoP', sub: identity.did });

    const account: StoredAccount = {
      externalId: identity.did,
      tokens: {
        accessToken: tokens.access_token,
        accessTokenExpiresAt: null,
        refreshToken: tokens.refresh_token ?? null,
        refreshTokenExpiresAt: null,
        scopes: (tokens.scope ?? '').split(' '),
      },
      extra: { did: identity.did, pds: identity.pds, handle: 'olive.bsky.sandbox' },
      secrets: { dpopKey: JSON.stringify(dpopKey) },
    };
    const publishing = createBlueskyPublishing(api, () => Promise.reject(new Error('no pages')));
    const post = await publishInOneGo(publishing, account, {
      text: 'Signed in with OAuth',
      media: [],
      idempotencyKey: 'oauth-post',
    });
    expect(post.externalId).toMatch(new RegExp(`^at://${identity.did}/app.bsky.feed.post/`));

    // The token alone is worth nothing: without its DPoP proof the PDS refuses it.
    const bare = await http(`${identity.pds}/xrpc/com.atproto.server.getServiceAuth?aud=x`, {
      headers: { authorization: `DPoP ${tokens.access_token}` },
    });
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { error: string }).error).toBe('invalid_dpop_proof');

    // Refresh with the session's DPoP key; the old refresh token is spent.
    const renewed = await oauth.refresh({ server, dpopKey, refreshToken: tokens.refresh_token! });
    expect(renewed.access_token).not.toBe(tokens.access_token);
    const replay = await oauth
      .refresh({ server, dpopKey, refreshToken: tokens.refresh_token! })
      .catch((e: unknown) => e);
    expect((replay as PlatformError).kind).toBe('reauth');
    const withRenewed = {
      ...account,
      tokens: { ...account.tokens, accessToken: renewed.access_token },
    };
    const second = await publishInOneGo(publishing, withRenewed, {
      text: 'Still signed in',
      media: [],
      idempotencyKey: 'oauth-post-2',
    });
    expect(second.externalId).toMatch(/^at:\/\//);
  });

  it('refuses a client whose assertion is not signed by a key of its JWKS', async () => {
    const impostor = createBlueskyOAuth(http, {
      ...client,
      key: clientKeyOf(undefined, 'another secret'),
    });
    const server = await impostor.authServerMetadata(
      `${new URL(h.heraldApi).origin}/api/sandbox/bluesky`,
    );
    const refused = await impostor
      .authorize({
        server,
        dpopKey: newDpopKey(),
        state: 's',
        codeChallenge: challengeOf('x'.repeat(43)),
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PlatformError);
    expect((refused as PlatformError).message).toMatch(/Client authentication failed/);
  });

  it('retries once with the nonce the server asks for', async () => {
    const calls: string[] = [];
    const send = dpopSender((url, init) => {
      calls.push(String((init?.headers as Record<string, string>).dpop).split('.')[1]!);
      return http(url, init);
    });
    const server = `${new URL(h.heraldApi).origin}/api/sandbox/bluesky`;
    const res = await send(newDpopKey(), `${server}/oauth/par`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_id=nobody',
    });
    // The first proof had no nonce; the second carried the server's, and got past the DPoP check.
    expect(calls).toHaveLength(2);
    const payloads = calls.map((c) => JSON.parse(Buffer.from(c, 'base64url').toString()));
    expect(payloads[0].nonce).toBeUndefined();
    expect(payloads[1].nonce).toBe(res.headers.get('dpop-nonce'));
    expect(((await res.json()) as { error: string }).error).toBe('invalid_client');
  });
});
