import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openSignInForm, type TestApp } from '../test/app.js';
import { createOrg } from '../test/factories.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('security headers', () => {
  it('JSON answers carry the headers that protect data: found, refused and unknown alike', async () => {
    for (const url of ['/api/healthz', '/api/auth/me', '/api/no-such-route']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['cache-control']).toBe('no-store');
      // What only a page uses is left out: every header costs every call.
      for (const name of ['referrer-policy', 'x-xss-protection', 'origin-agent-cluster'])
        expect(res.headers[name], name).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it("pages and files carry a page's headers, and a route's own choice stands", async () => {
    const web = mkdtempSync(join(tmpdir(), 'herald-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>Herald</title>');
    const served = await createTestApp({ WEB_DIST_DIR: web }, { serveWeb: true });
    try {
      const page = await served.app.inject({ method: 'GET', url: '/calendar' });
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.headers['content-security-policy']).toContain("form-action 'self'");
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
      // The API's documentation page keeps the policy its own scripts need.
      const docs = await served.app.inject({ method: 'GET', url: '/api/docs/' });
      expect(docs.statusCode).toBe(200);
      expect(docs.headers['content-security-policy']).toContain('validator.swagger.io');
    } finally {
      await served.close();
      rmSync(web, { recursive: true, force: true });
    }
  });

  it('answers written past Fastify carry them too: the sign-in page and the event stream', async () => {
    const expectHeaders = (headers: (name: string) => unknown) => {
      expect(headers('content-security-policy')).toContain("default-src 'self'");
      expect(headers('x-frame-options')).toBe('SAMEORIGIN');
      expect(headers('x-content-type-options')).toBe('nosniff');
    };
    const form = await openSignInForm(t.app);
    expect(form.res.body).toContain('<form');
    expectHeaders((name) => form.res.headers[name]);

    const own = await createTestApp();
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    try {
      const { owner, orgId } = await createOrg(own.app, 'headers@example.com', 'Headers Co', {
        trial: null,
      });
      const port = (own.app.server.address() as { port: number }).port;
      const res = await fetch(
        `http://127.0.0.1:${port}/api/notifications/stream?organizationId=${orgId}`,
        { headers: { cookie: owner.jar.header() }, signal: controller.signal },
      );
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      expectHeaders((name) => res.headers.get(name));
    } finally {
      controller.abort();
      await own.close();
    }
  });

  it('asks browsers for HTTPS only when the site is served over HTTPS', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/healthz' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const secure = await createTestApp({ PUBLIC_URL: 'https://herald.example.com' });
    try {
      const answer = await secure.app.inject({ method: 'GET', url: '/api/healthz' });
      expect(answer.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const form = await openSignInForm(secure.app);
      expect(form.res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(form.res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await secure.close();
    }
  });
});
