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
  it('every answer carries the same headers: found, refused and unknown alike', async () => {
    for (const url of ['/api/healthz', '/api/auth/me', '/api/no-such-route']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain("form-action 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['x-powered-by']).toBeUndefined();
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
      expect(answer.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await secure.close();
    }
  });
});
