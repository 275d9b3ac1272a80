import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, type TestApp } from '../test/app.js';
import { signIn, type Actor } from '../test/factories.js';

/** A cross-site form can send cookies, but neither a JSON body nor a same-site Origin. */
let t: TestApp;
let someone: Actor;

beforeAll(async () => {
  t = await createTestApp();
  someone = await signIn(t.app, 'csrf@example.com');
}, 60_000);
afterAll(() => t?.close());

function post(headers: Record<string, string>, payload?: string) {
  return send(t.app, someone.jar, {
    method: 'POST',
    url: '/api/organizations',
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });
}

describe('state changes without an Origin', () => {
  it('are refused as a form would send them: urlencoded, text/plain, multipart or no body', async () => {
    for (const type of [
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await post({ 'content-type': type }, 'name=Evil');
      expect({ type, status: res.statusCode }).toEqual({ type, status: 403 });
      expect(res.json().message).toMatch(/needs an Origin header or a JSON body/);
    }
    const empty = await send(t.app, someone.jar, { method: 'POST', url: '/api/auth/logout' });
    expect(empty.statusCode).toBe(403);
    expect((await someone.call('GET', '/api/auth/me')).status).toBe(200);
  });

  it('are refused when the browser says the request is cross-site', async () => {
    const res = await post(
      { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      JSON.stringify({ name: 'Evil' }),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/another site/);
  });

  it('pass with a JSON body (API clients) or a same-origin fetch', async () => {
    const json = await post({ 'content-type': 'application/json' }, JSON.stringify({ name: 'A' }));
    expect(json.statusCode).toBe(201);
    const sameOrigin = await send(t.app, someone.jar, {
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.statusCode).toBeLessThan(300);
    expect((await someone.call('GET', '/api/auth/me')).status).toBe(401);
  });
});
