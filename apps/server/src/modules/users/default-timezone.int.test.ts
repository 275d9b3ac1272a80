import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { signIn } from '../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('PUT /users/me/default-timezone', () => {
  it("stores the browser's zone on first sign-in, once, and a zone chosen in settings stays", async () => {
    const person = await signIn(t.app, 'zone.first@example.com', 'Zoe');
    expect((await person.call('GET', '/api/auth/me')).body.data.user.timezone).toBeNull();

    const first = await person.call('PUT', '/api/users/me/default-timezone', {
      timezone: 'Europe/Paris',
    });
    expect(first.status).toBe(200);
    expect(first.body.data.user.timezone).toBe('Europe/Paris');
    expect((await person.call('GET', '/api/auth/me')).body.data.user.timezone).toBe('Europe/Paris');

    // Another browser (or a later sign-in) does not replace it.
    const again = await person.call('PUT', '/api/users/me/default-timezone', {
      timezone: 'Asia/Tokyo',
    });
    expect(again.status).toBe(200);
    expect(again.body.data.user.timezone).toBe('Europe/Paris');

    // The user changes it in settings, and the default does not undo that.
    const chosen = await person.call('PUT', `/api/users/${person.userId}`, {
      displayName: 'Zoe',
      timezone: 'America/New_York',
    });
    expect(chosen.status).toBe(200);
    await person.call('PUT', '/api/users/me/default-timezone', { timezone: 'Europe/Paris' });
    expect((await person.call('GET', '/api/auth/me')).body.data.user.timezone).toBe(
      'America/New_York',
    );
  });

  it('refuses a zone that does not exist, and visitors', async () => {
    const person = await signIn(t.app, 'zone.bad@example.com');
    const bad = await person.call('PUT', '/api/users/me/default-timezone', {
      timezone: 'Mars/Olympus',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/IANA name/);
    expect((await person.call('GET', '/api/auth/me')).body.data.user.timezone).toBeNull();

    const visitor = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/default-timezone',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      payload: JSON.stringify({ timezone: 'Europe/Paris' }),
    });
    expect(visitor.statusCode).toBe(401);
  });
});
