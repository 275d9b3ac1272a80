import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { useHarness } from '../../test/network-tests.js';

/**
 * Herald's documents as a Bluesky OAuth client (docs/networks.md#bluesky-oauth): served at its
 * public https address, where the client id points; absent without one.
 */
const https = useHarness(() => createTestApp({ API_PUBLIC_URL: 'https://herald.example/api' }));
const plain = useHarness(() => createTestApp());

describe('Bluesky OAuth client documents', () => {
  it('serves the client metadata and its JWKS at the client id when Herald is on https', async () => {
    const meta = await https.app.inject({
      method: 'GET',
      url: '/api/oauth/bluesky/client-metadata.json',
    });
    expect(meta.statusCode).toBe(200);
    expect(meta.json()).toMatchObject({
      client_id: 'https://herald.example/api/oauth/bluesky/client-metadata.json',
      redirect_uris: ['https://herald.example/api/auth/bluesky/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      jwks_uri: 'https://herald.example/api/oauth/bluesky/jwks.json',
      dpop_bound_access_tokens: true,
    });
    expect(meta.json().scope.split(' ')).toContain('atproto');
    const jwks = await https.app.inject({ method: 'GET', url: '/api/oauth/bluesky/jwks.json' });
    const [key] = jwks.json().keys;
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    // The public half only.
    expect(key.d).toBeUndefined();
  });

  it('has none without a public https address: accounts connect with app passwords', async () => {
    const meta = await plain.app.inject({
      method: 'GET',
      url: '/api/oauth/bluesky/client-metadata.json',
    });
    expect(meta.statusCode).toBe(404);
    expect(meta.json().message).toMatch(/app passwords/);
  });
});
