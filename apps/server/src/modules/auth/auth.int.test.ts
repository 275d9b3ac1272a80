import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { authSessions, members, organizations, users } from '../../db/schema.js';
import {
  CookieJar,
  createTestApp,
  openSignInForm,
  send,
  signInThroughDevProvider,
  signInUntilCallback,
  TEST_PUBLIC_URL,
  type TestApp,
} from '../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'Boss@Example.com' });
});
afterAll(() => t.close());

const me = (jar: CookieJar) => send(t.app, jar, { method: 'GET', url: '/api/auth/me' });
const refresh = (jar: CookieJar) =>
  send(t.app, jar, {
    method: 'POST',
    url: '/api/auth/refreshToken',
    headers: { origin: TEST_PUBLIC_URL },
  });
const userCount = async () => (await t.database.db.select({ n: count() }).from(users))[0]!.n;

describe('sign-in through the development identity provider', () => {
  it('creates the user on first sign-in and lands on /auth/login-success without an organization', async () => {
    const { location, jar } = await signInThroughDevProvider(
      t.app,
      'new.user@example.com',
      'New User',
    );
    expect(location).toBe(`${TEST_PUBLIC_URL}/auth/login-success`);
    const res = await me(jar);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('success');
    expect(body.data.user).toMatchObject({
      email: 'new.user@example.com',
      displayName: 'New User',
      isAdmin: false,
    });
    expect(body.data.member).toBeNull();
  });

  it('updates the same user on a later sign-in instead of creating another', async () => {
    const before = await userCount();
    const { jar } = await signInThroughDevProvider(t.app, 'NEW.USER@example.com', 'Renamed User');
    expect(await userCount()).toBe(before);
    expect((await me(jar)).json().data.user.displayName).toBe('Renamed User');
  });

  it('sets httpOnly, SameSite=Lax session cookies', async () => {
    const jar = new CookieJar();
    let res = await send(t.app, jar, { method: 'GET', url: '/api/auth/google' });
    expect(res.statusCode).toBe(302);
    const { jar: signedIn } = await signInThroughDevProvider(t.app, 'cookies@example.com');
    res = await refresh(signedIn);
    const setCookie = [res.headers['set-cookie']].flat().join('\n');
    expect(setCookie).toMatch(/herald_at=[^;]+;.*HttpOnly/);
    expect(setCookie).toMatch(/herald_rt=[^;]+;.*Path=\/api\/auth;.*HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
  });

  it('grants operator rights to addresses in ADMIN_EMAILS, case-insensitively', async () => {
    const { jar } = await signInThroughDevProvider(t.app, 'boss@example.com', 'The Boss');
    expect((await me(jar)).json().data.user.isAdmin).toBe(true);
  });

  it('redirects with ?orgId= when the user already belongs to an organization', async () => {
    const { jar } = await signInThroughDevProvider(t.app, 'member@example.com');
    const user = (await me(jar)).json().data.user;
    const [org] = await t.database.db.insert(organizations).values({ name: 'Acme' }).returning();
    await t.database.db.insert(members).values({
      organizationId: org!.id,
      userId: user.id,
      email: user.email,
      joinedAt: new Date(),
    });
    const again = await signInThroughDevProvider(t.app, 'member@example.com');
    expect(again.location).toBe(`${TEST_PUBLIC_URL}/auth/login-success?orgId=${org!.id}`);
    expect((await me(again.jar)).json().data.member).toMatchObject({
      organizationId: org!.id,
      status: 'ACTIVE',
    });
  });

  it('shows the form again with an error for an invalid email, and signs nobody in', async () => {
    const form = await openSignInForm(t.app);
    expect(form.res.statusCode).toBe(200);
    const before = await userCount();
    const res = await form.submit({ email: 'not-an-email', name: 'Nobody' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Enter a valid email address');
    expect(res.body).toContain('name="email"');
    expect(res.body).toContain('value="not-an-email"');
    expect(await userCount()).toBe(before);
  });
});

describe('refused sign-ins create nothing', () => {
  it('refuses a callback whose state was tampered with', async () => {
    const before = await userCount();
    const { callbackPath, jar } = await signInUntilCallback(t.app, 'tampered.state@example.com');
    const cb = new URL(callbackPath, TEST_PUBLIC_URL);
    cb.searchParams.set('state', 'forged-state');
    const res = await send(t.app, jar, { method: 'GET', url: cb.pathname + cb.search });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/\/login\?error=/);
    expect(jar.get('herald_at')).toBeUndefined();
    expect(await userCount()).toBe(before);
  });

  it('refuses a replayed authorization code', async () => {
    const { callbackPath, jar } = await signInThroughDevProvider(t.app, 'replay@example.com');
    const sessionsBefore = (await t.database.db.select({ n: count() }).from(authSessions))[0]!.n;
    // Replay with the pending cookie of a new attempt, as an attacker holding the code would.
    const attacker = new CookieJar();
    await send(t.app, attacker, { method: 'GET', url: '/api/auth/google' });
    const res = await send(t.app, attacker, { method: 'GET', url: callbackPath });
    expect(res.headers.location).toMatch(/\/login\?error=/);
    expect(attacker.get('herald_at')).toBeUndefined();
    // Replaying in the original browser finds the pending cookie already spent.
    const again = await send(t.app, jar, { method: 'GET', url: callbackPath });
    expect(again.headers.location).toMatch(/\/login\?error=/);
    const sessionsAfter = (await t.database.db.select({ n: count() }).from(authSessions))[0]!.n;
    expect(sessionsAfter).toBe(sessionsBefore);
  });
  it('turns a cancelled sign-in at the provider into a sentence on /login', async () => {
    const jar = new CookieJar();
    await send(t.app, jar, { method: 'GET', url: '/api/auth/google' });
    const res = await send(t.app, jar, {
      method: 'GET',
      url: '/api/auth/google/callback?error=access_denied&error_description=The+user+said+no',
    });
    expect(res.headers.location).toBe(
      `${TEST_PUBLIC_URL}/login?error=${encodeURIComponent('Sign-in was cancelled or refused at the identity provider. Please try again.')}`,
    );
  });
});

describe('sessions', () => {
  it('rotates the refresh token: the new pair works and the old access token keeps working until it expires', async () => {
    const { jar } = await signInThroughDevProvider(t.app, 'rotate@example.com');
    const firstRefresh = jar.get('herald_rt');
    const res = await refresh(jar);
    expect(res.statusCode).toBe(200);
    expect(jar.get('herald_rt')).toBeDefined();
    expect(jar.get('herald_rt')).not.toBe(firstRefresh);
    expect((await me(jar)).statusCode).toBe(200);
    expect((await refresh(jar)).statusCode).toBe(200);
  });

  it('revokes the whole family when a spent refresh token comes back after the grace period', async () => {
    let clock = Date.now();
    const own = await createTestApp({}, { now: () => new Date(clock) });
    const post = (jar: CookieJar) =>
      send(own.app, jar, {
        method: 'POST',
        url: '/api/auth/refreshToken',
        headers: { origin: TEST_PUBLIC_URL },
      });
    try {
      const { jar } = await signInThroughDevProvider(own.app, 'reuse@example.com');
      const stolen = jar.get('herald_rt')!;
      expect((await post(jar)).statusCode).toBe(200);
      const legit = jar.get('herald_rt')!;

      clock += 31_000;
      const thief = new CookieJar();
      thief.set('herald_rt', stolen);
      const reuse = await post(thief);
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json()).toMatchObject({ status: 'error', code: 'UNAUTHENTICATED' });

      // The legitimate holder's newer token and access token are dead too.
      expect((await send(own.app, jar, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(
        401,
      );
      const victim = new CookieJar();
      victim.set('herald_rt', legit);
      expect((await post(victim)).statusCode).toBe(401);
    } finally {
      await own.close();
    }
  });

  it('keeps two tabs that refresh with the same token at once signed in', async () => {
    const { jar: tab1 } = await signInThroughDevProvider(t.app, 'two.tabs@example.com');
    const tab2 = new CookieJar();
    tab2.set('herald_rt', tab1.get('herald_rt')!);
    expect((await refresh(tab1)).statusCode).toBe(200);
    expect((await refresh(tab2)).statusCode).toBe(200);
    expect(tab2.get('herald_rt')).not.toBe(tab1.get('herald_rt'));
    expect((await me(tab1)).statusCode).toBe(200);
    expect((await me(tab2)).statusCode).toBe(200);
  });

  it('refuses a refresh without a cookie or with an unknown token', async () => {
    expect((await refresh(new CookieJar())).statusCode).toBe(401);
    const jar = new CookieJar();
    jar.set('herald_rt', 'made-up');
    const res = await refresh(jar);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/sign in again/i);
  });

  it('logout revokes the session and clears the cookies', async () => {
    const { jar } = await signInThroughDevProvider(t.app, 'logout@example.com');
    const access = jar.get('herald_at')!;
    const refreshToken = jar.get('herald_rt')!;
    const res = await send(t.app, jar, {
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: TEST_PUBLIC_URL },
    });
    expect(res.statusCode).toBe(200);
    expect(jar.get('herald_at')).toBeUndefined();
    const replay = new CookieJar();
    replay.set('herald_at', access);
    replay.set('herald_rt', refreshToken);
    expect((await me(replay)).statusCode).toBe(401);
    expect((await refresh(replay)).statusCode).toBe(401);
  });

  it('asks for an email again after logout instead of signing the same person back in', async () => {
    const { jar } = await signInThroughDevProvider(t.app, 'comes.back@example.com');
    // The provider's own session cookie stays in the browser (here: the jar) after logout.
    const logout = await send(t.app, jar, {
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: TEST_PUBLIC_URL },
    });
    expect(logout.statusCode).toBe(200);
    const again = await openSignInForm(t.app, jar);
    expect(again.res.statusCode).toBe(200);
    expect(again.res.body).toContain('name="email"');
    expect(jar.get('herald_at')).toBeUndefined();
    // And the form signs them in as usual.
    const done = await again.submit({ email: 'comes.back@example.com', name: 'Back Again' });
    expect(done.statusCode).toBe(303);
    const callback = new URL(done.headers.location as string, TEST_PUBLIC_URL);
    let res = await send(t.app, jar, { method: 'GET', url: callback.pathname + callback.search });
    for (let i = 0; i < 5 && !String(res.headers.location).includes('/auth/google/callback'); i++) {
      const next = new URL(res.headers.location as string, TEST_PUBLIC_URL);
      res = await send(t.app, jar, { method: 'GET', url: next.pathname + next.search });
    }
    const final = new URL(res.headers.location as string, TEST_PUBLIC_URL);
    res = await send(t.app, jar, { method: 'GET', url: final.pathname + final.search });
    expect(res.headers.location).toBe(`${TEST_PUBLIC_URL}/auth/login-success`);
    expect((await me(jar)).json().data.user.displayName).toBe('Back Again');
  });

  it('refuses state-changing requests from a foreign Origin', async () => {
    const { jar } = await signInThroughDevProvider(t.app, 'csrf@example.com');
    const res = await send(t.app, jar, {
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/another site/);
    expect((await me(jar)).statusCode).toBe(200);
  });

  it('answers 401 with the envelope for /auth/me without a session', async () => {
    const res = await me(new CookieJar());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 'error', code: 'UNAUTHENTICATED' });
  });

  it('answers a query string on the provider root with a 4xx, not a crash', async () => {
    const root = await t.app.inject({ method: 'GET', url: '/api/oidc?unexpected=value' });
    expect(root.statusCode).toBeGreaterThanOrEqual(400);
    expect(root.statusCode).toBeLessThan(500);
    const discovery = await t.app.inject({
      method: 'GET',
      url: '/api/oidc/.well-known/openid-configuration?unexpected=value',
    });
    expect(discovery.statusCode).toBe(200);
  });

  it('names the identity provider for the login button', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/provider' });
    expect(res.json()).toEqual({
      status: 'success',
      data: { kind: 'development', label: 'Herald development sign-in' },
    });
  });
});
