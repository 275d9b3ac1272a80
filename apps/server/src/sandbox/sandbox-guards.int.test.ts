import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { buildNetworks } from '../platforms/runtime.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../test/app.js';
import { createOrg, type Actor } from '../test/factories.js';

/**
 * The sandboxes ship with the server (development only): they redirect to Herald's own callback
 * and nowhere else, their control routes need a signed-in user, and no body nests deep enough
 * to blow the stack of whatever walks it.
 */
let t: TestApp;
let owner: Actor;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId } = await createOrg(t.app, 'guards@sandbox.test', 'Guarded Co'));
}, 60_000);
afterAll(() => t?.close());

/** The X adapter's authorize URL for this redirect_uri, as an inject path, auto-approved. */
function authorizePath(redirectUri: string) {
  const url = new URL(
    t.networks.get('x')!.adapter.authorizeUrl({ redirectUri, state: 's1', codeChallenge: 'c1' }),
  );
  url.searchParams.set('emu_auto', '1');
  url.searchParams.set('emu_account', 'guarded');
  return `${url.pathname}${url.search}`;
}

/** `{depth}` nested arrays around one number. */
const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('sandbox authorize endpoints', () => {
  it('redirect to Herald’s own callback', async () => {
    const callback = `${TEST_PUBLIC_URL}/api/auth/x/callback`;
    const res = await t.app.inject({ method: 'GET', url: authorizePath(callback) });
    expect(res.statusCode).toBe(302);
    const landed = new URL(res.headers.location as string);
    expect(`${landed.origin}${landed.pathname}`).toBe(callback);
    expect(landed.searchParams.get('code')).toBeTruthy();
  });

  it.each([
    'https://evil.example/cb',
    `${TEST_PUBLIC_URL}/api/auth/linkedin/callback`,
    `${TEST_PUBLIC_URL}/api/auth/x/callback/../../evil`,
  ])('show an error page for redirect_uri %s, without redirecting', async (redirectUri) => {
    for (const method of ['GET', 'POST'] as const) {
      const path = authorizePath(redirectUri);
      const res =
        method === 'GET'
          ? await t.app.inject({ method, url: path })
          : await t.app.inject({
              method,
              url: path.split('?')[0]!,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: `${path.split('?')[1]}&decision=approve&account=guarded`,
            });
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('redirect_uri mismatch');
      expect(res.body).not.toContain('evil.example');
    }
  });

  it.each(['x', 'facebook', 'instagram', 'linkedin', 'threads', 'tiktok'])(
    'refuse a foreign redirect_uri on %s, and accept Herald’s callback',
    async (slug) => {
      const adapter = t.networks.get(slug)!.adapter;
      const open = async (redirectUri: string) => {
        const url = new URL(adapter.authorizeUrl({ redirectUri, state: 's', codeChallenge: 'c' }));
        return t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      };
      const evil = await open('https://evil.example/cb');
      expect(evil.statusCode).toBe(400);
      expect(evil.headers.location).toBeUndefined();
      expect(evil.body).toContain('redirect_uri mismatch');
      const good = await open(`${TEST_PUBLIC_URL}/api/auth/${slug}/callback`);
      expect(good.statusCode).toBe(200);
      expect(good.body).toContain('<form method="post"');
    },
  );
});

describe('sandbox control routes (/_emu/*)', () => {
  it('answer 401 without a session and work with one', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/sandbox/x/_emu/calls' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ status: 'error', code: 'UNAUTHENTICATED' });
    const knob = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/x/_emu/scenario',
      payload: { account: 'guarded', knob: 'token_revoked', on: true },
    });
    expect(knob.statusCode).toBe(401);
    const signedIn = await t.app.inject({
      method: 'GET',
      url: '/api/sandbox/x/_emu/calls',
      headers: { cookie: owner.jar.header() },
    });
    expect(signedIn.statusCode).toBe(200);
  });

  it('answer 404 when the network is not sandboxed', async () => {
    const withCredentials = await createTestApp({
      X_CLIENT_ID: 'real-client',
      X_CLIENT_SECRET: 'real-secret',
    });
    try {
      const res = await withCredentials.app.inject({
        method: 'GET',
        url: '/api/sandbox/x/_emu/calls',
      });
      expect(res.statusCode).toBe(404);
      const other = await withCredentials.app.inject({
        method: 'GET',
        url: '/api/sandbox/threads/_emu/calls',
      });
      expect(other.statusCode).toBe(401);
    } finally {
      await withCredentials.close();
    }
  }, 60_000);

  it('are never mounted in production: no network runs against a sandbox there', () => {
    const production = loadConfig({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://herald.example',
      LOG_LEVEL: 'silent',
      SESSION_SECRET: 'x'.repeat(64),
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      BILLING_PROVIDER: 'none',
      GOOGLE_CLIENT_ID: 'g',
      GOOGLE_CLIENT_SECRET: 'g',
      X_CLIENT_ID: 'real-client',
      X_CLIENT_SECRET: 'real-secret',
    });
    const networks = buildNetworks(production, fetch, 'unused');
    expect([...networks.values()].filter((n) => n.sandbox)).toEqual([]);
    // Mastodon and Bluesky need no credentials: Herald registers itself on each real Mastodon
    // server, and Bluesky accounts bring their own app passwords.
    expect([...networks.keys()]).toEqual(['x', 'mastodon', 'bluesky']);
  });
});

describe('JSON bodies nested too deep', () => {
  it('answer 400 with a sentence on an API route and on a sandbox route', async () => {
    const deep = nested(10_000);
    for (const url of [
      '/api/organizations',
      '/api/sandbox/x/2/tweets',
      '/api/sandbox/x/_emu/scenario',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', cookie: owner.jar.header() },
        payload: deep,
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ status: 'error', code: 'BAD_REQUEST' });
      expect(res.json().message).toMatch(/more than 64 levels deep/);
    }
  });

  it('still accept nesting up to the bound, and brackets inside strings', async () => {
    const res = await owner.call('POST', '/api/organizations', {
      name: `Brackets ${'['.repeat(40)}`,
    });
    expect(res.status).toBeLessThan(300);
    const shallow = await t.app.inject({
      method: 'POST',
      url: `/api/sandbox/x/_emu/inbox/flush?organizationId=${orgId}`,
      headers: { 'content-type': 'application/json', cookie: owner.jar.header() },
      payload: JSON.stringify({ deep: JSON.parse(nested(60)) }),
    });
    expect(shallow.statusCode).toBe(200);
  });
});
