import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../test/app.js';

let t: TestApp;
let web: string;
beforeAll(async () => {
  web = mkdtempSync(join(tmpdir(), 'herald-web-'));
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>Herald</title>');
  t = await createTestApp({ WEB_DIST_DIR: web }, { serveWeb: true });
});
afterAll(async () => {
  await t.close();
  rmSync(web, { recursive: true, force: true });
});

const get = (url: string, host: string, method: 'GET' | 'HEAD' | 'POST' = 'GET') =>
  t.app.inject({ method, url, headers: { host } });

describe('pages opened by another host name than PUBLIC_URL', () => {
  it('redirects SPA pages to the same path on PUBLIC_URL', async () => {
    for (const [url, method] of [
      ['/', 'GET'],
      ['/calendar?week=2025-01-06', 'GET'],
      ['/login', 'HEAD'],
    ] as const) {
      const res = await get(url, '127.0.0.1:3000', method);
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location).toBe(`${TEST_PUBLIC_URL}${url}`);
      // Answered before any route, and still with the headers every other answer carries.
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('redirects the sign-in start to PUBLIC_URL, so the pending cookie lands on the right host', async () => {
    const res = await get('/api/auth/google?returnTo=%2Finvite%2Fx', '127.0.0.1:3000');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${TEST_PUBLIC_URL}/api/auth/google?returnTo=%2Finvite%2Fx`);
  });

  it('serves pages on the public host name, whatever the port (cookies ignore ports)', async () => {
    expect((await get('/calendar', 'localhost:3000')).statusCode).toBe(200);
    expect((await get('/calendar', 'LOCALHOST')).statusCode).toBe(200);
    const start = await get('/api/auth/google', 'localhost:80');
    expect(start.statusCode).toBe(302);
    expect(new URL(start.headers.location as string).pathname).toBe('/api/oidc/auth');
  });

  it('leaves API calls, health checks and non-page methods alone', async () => {
    const provider = await get('/api/auth/provider', '127.0.0.1:3000');
    expect(provider.statusCode).toBe(200);
    expect(provider.json().status).toBe('success');
    expect((await get('/api/healthz', '127.0.0.1:3000')).statusCode).toBe(200);
    expect((await get('/api/auth/me', '127.0.0.1:3000')).statusCode).toBe(401);
    expect((await get('/', '127.0.0.1:3000', 'POST')).statusCode).not.toBe(302);
  });
});
