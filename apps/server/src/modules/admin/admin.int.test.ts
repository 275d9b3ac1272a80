import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { auditLog, platforms, plans, posts, users } from '../../db/schema.js';
import { createTestApp, holdableClock, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, signIn, type Actor } from '../../test/factories.js';
import { setOperator } from '../users/users.service.js';

let t: TestApp;
const clock = holdableClock();
let ops: Actor;
let someone: Actor;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'ops@example.com' }, { now: clock.now });
  ops = await signIn(t.app, 'ops@example.com', 'Olga Ops');
  someone = await signIn(t.app, 'someone@example.com', 'Sam Someone');
});
afterAll(() => t.close());

const planBody = {
  name: 'Agency',
  description: 'For agencies',
  price: 99,
  billingCycle: 'MONTHLY',
  features: {
    invites: 10,
    postsPerDay: 50,
    organizations: 5,
    connectedPlatforms: 6,
    prioritySupport: true,
  },
  status: 'ACTIVE',
};

const rowCount = async (table: typeof users | typeof plans | typeof platforms) =>
  (await t.database.db.select({ n: count() }).from(table))[0]!.n;
const auditOf = (targetId: string) =>
  t.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId));
const anonymous = async (method: string, url: string, body?: unknown) => {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: {
      origin: TEST_PUBLIC_URL,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: res.json() };
};

describe('every back-office route', () => {
  it('answers 401 to an anonymous caller and 403 to a signed-in non-operator, changing nothing', async () => {
    const x = (await ops.call('GET', '/api/platforms')).body.data.platforms.find(
      (p: { name: string }) => p.name === 'X',
    );
    const starter = (await ops.call('GET', '/api/plans?page=1&pageSize=10')).body.data.plans[0];
    const routes: Array<[method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown]> = [
      ['GET', '/api/users?page=1&pageSize=10'],
      ['GET', `/api/users/${ops.userId}`],
      ['PUT', `/api/users/${ops.userId}`, { displayName: 'Taken Over', timezone: 'UTC' }],
      ['GET', '/api/admin/overview'],
      ['GET', '/api/admin/activity?timezone=UTC'],
      ['GET', '/api/admin/audit-log'],
      ['GET', '/api/plans?page=1&pageSize=10'],
      ['POST', '/api/plans', planBody],
      ['PUT', `/api/plans/${starter.id}`, { ...planBody, name: 'Hijacked' }],
      ['GET', '/api/platforms'],
      ['POST', '/api/platforms', { name: 'Mastodon', mediaConstraints: {} }],
      ['PUT', `/api/platforms/${x.id}/deactivate`],
      ['PUT', `/api/platforms/${x.id}/activate`],
    ];
    const before = await Promise.all([rowCount(plans), rowCount(platforms)]);
    for (const [method, url, body] of routes) {
      const anon = await anonymous(method, url, body);
      expect(anon.status, `${method} ${url} anonymous`).toBe(401);
      expect(anon.body).toMatchObject({ status: 'error', code: 'UNAUTHENTICATED' });
      const plain = await someone.call(method, url, body);
      expect(plain.status, `${method} ${url} non-operator`).toBe(403);
      expect(plain.body).toMatchObject({
        status: 'error',
        code: 'FORBIDDEN',
        message: expect.stringMatching(/\.$/),
      });
    }
    expect(await Promise.all([rowCount(plans), rowCount(platforms)])).toEqual(before);
    const opsRow = await t.database.db.select().from(users).where(eq(users.id, ops.userId));
    expect(opsRow[0]!.displayName).toBe('Olga Ops');
    expect((await ops.call('GET', `/api/plans/${starter.id}`)).body.data.plan.name).toBe(
      starter.name,
    );
    expect((await ops.call('GET', '/api/platforms')).body.data.platforms).toContainEqual(
      expect.objectContaining({ name: 'X', isActive: true }),
    );
    expect(await t.database.db.select().from(auditLog)).toEqual([]);

    // The public plan list stays public; only its paged (operators') form is guarded.
    expect((await anonymous('GET', '/api/plans')).status).toBe(200);
    expect((await someone.call('GET', '/api/plans')).status).toBe(200);
  });
});

describe('users', () => {
  it('lists users newest first, ten a page, searching name and email in any case', async () => {
    await signIn(t.app, 'grace.hopper@navy.example', 'Grace Hopper');
    await signIn(t.app, 'alan@bletchley.example', 'Alan Turing');
    await signIn(t.app, 'edsger@example.com', 'Edsger Dijkstra');
    for (let i = 0; i < 9; i++) await signIn(t.app, `filler${i}@example.com`, `Filler ${i}`);
    const total = await rowCount(users);

    const first = await ops.call('GET', '/api/users');
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ page: 1, pageSize: 10, totalCount: total });
    expect(first.body.data.users).toHaveLength(10);
    expect(first.body.data.users[0]).toMatchObject({ email: 'filler8@example.com' });
    expect(Object.keys(first.body.data.users[0]).sort()).toEqual(
      ['avatarUrl', 'createdAt', 'displayName', 'email', 'id', 'isAdmin', 'timezone'].sort(),
    );
    const second = await ops.call('GET', '/api/users?page=2&pageSize=10');
    expect(second.body.data.users).toHaveLength(total - 10);
    const seen = [...first.body.data.users, ...second.body.data.users].map(
      (u: { id: string }) => u.id,
    );
    expect(new Set(seen).size).toBe(total);

    const byName = await ops.call('GET', '/api/users?search=HOPPER');
    expect(byName.body.data.users.map((u: { email: string }) => u.email)).toEqual([
      'grace.hopper@navy.example',
    ]);
    expect(byName.body.meta.totalCount).toBe(1);
    const byEmail = await ops.call('GET', '/api/users?search=Bletchley');
    expect(byEmail.body.data.users.map((u: { displayName: string }) => u.displayName)).toEqual([
      'Alan Turing',
    ]);
    // LIKE's wildcards are plain characters to the search.
    expect((await ops.call('GET', '/api/users?search=%25')).body.data.users).toEqual([]);
    expect((await ops.call('GET', '/api/users?search=nobody-like-this')).body).toMatchObject({
      data: { users: [] },
      meta: { totalCount: 0 },
    });

    const badPage = await ops.call('GET', '/api/users?page=0');
    expect(badPage.status).toBe(400);
    expect(badPage.body.message).toContain('The page must be a whole number of at least 1.');
  });

  it('shows one user, or says that the user does not exist', async () => {
    const one = await ops.call('GET', `/api/users/${someone.userId}`);
    expect(one.body.data.user).toMatchObject({
      id: someone.userId,
      email: 'someone@example.com',
      displayName: 'Sam Someone',
      isAdmin: false,
    });
    const missing = await ops.call('GET', '/api/users/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'NOT_FOUND', message: 'This user does not exist.' });
    const malformed = await ops.call('GET', '/api/users/not-an-id');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('The user id is not valid.');
  });

  it('lets an operator change only the display name, picture and time zone, and audits it', async () => {
    const target = await signIn(t.app, 'edit.me@example.com', 'Edit Me');
    const [original] = await t.database.db.select().from(users).where(eq(users.id, target.userId));

    const res = await ops.call('PUT', `/api/users/${target.userId}`, {
      displayName: '  Edited Name  ',
      avatarUrl: 'https://cdn.example/edited.png',
      timezone: 'Asia/Tokyo',
      // None of these may change here.
      email: 'stolen@example.com',
      isAdmin: true,
      createdAt: '2000-01-01T00:00:00.000Z',
      id: ops.userId,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({
      id: target.userId,
      displayName: 'Edited Name',
      avatarUrl: 'https://cdn.example/edited.png',
      timezone: 'Asia/Tokyo',
      email: 'edit.me@example.com',
      isAdmin: false,
    });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, target.userId));
    expect(row).toEqual({
      ...original,
      displayName: 'Edited Name',
      avatarUrl: 'https://cdn.example/edited.png',
      timezone: 'Asia/Tokyo',
      updatedAt: row!.updatedAt,
    });

    // A timezone left out stays as it is.
    const renamed = await ops.call('PUT', `/api/users/${target.userId}`, {
      displayName: 'Renamed',
    });
    expect(renamed.body.data.user).toMatchObject({
      displayName: 'Renamed',
      timezone: 'Asia/Tokyo',
    });

    const entries = await auditOf(target.userId);
    expect(entries).toHaveLength(2);
    const [edit, rename] = entries.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    expect(edit).toMatchObject({
      actorUserId: ops.userId,
      actorEmail: 'ops@example.com',
      action: 'user.update',
      targetType: 'user',
      targetLabel: 'edit.me@example.com',
      before: { displayName: 'Edit Me', avatarUrl: null, timezone: null },
      after: {
        displayName: 'Edited Name',
        avatarUrl: 'https://cdn.example/edited.png',
        timezone: 'Asia/Tokyo',
      },
    });
    // Only what changed is recorded.
    expect(rename).toMatchObject({
      before: { displayName: 'Edited Name' },
      after: { displayName: 'Renamed' },
    });
  });

  it('refuses invalid edits with a sentence, changing nothing', async () => {
    const target = await signIn(t.app, 'stays@example.com', 'Stays Same');
    const cases: Array<[body: Record<string, unknown>, message: string]> = [
      [{ displayName: '   ', timezone: 'UTC' }, 'Please fill all fields.'],
      [{ displayName: 'Name', timezone: 'Mars/Olympus' }, 'Choose a time zone from the list'],
      [{ displayName: 'Name', timezone: '' }, 'Please fill all fields.'],
      [
        { displayName: 'Name', avatarUrl: 'not a url' },
        'The avatar must be a web address starting with http:// or https://.',
      ],
      [
        { displayName: 'Name', avatarUrl: 'javascript:alert(1)' },
        'The avatar must be a web address starting with http:// or https://.',
      ],
      [{ displayName: 'x'.repeat(101) }, 'Display name must be at most 100 characters.'],
    ];
    for (const [body, message] of cases) {
      const res = await ops.call('PUT', `/api/users/${target.userId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.message).toContain(message);
    }
    const missing = await ops.call('PUT', '/api/users/00000000-0000-4000-8000-000000000000', {
      displayName: 'Ghost',
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('This user does not exist.');

    const [row] = await t.database.db.select().from(users).where(eq(users.id, target.userId));
    expect(row).toMatchObject({ displayName: 'Stays Same', timezone: null, avatarUrl: null });
    expect(await auditOf(target.userId)).toEqual([]);
  });

  it('still lets people edit their own profile, without the picture and without an audit entry', async () => {
    const self = await signIn(t.app, 'self.edit@example.com', 'Self Edit');
    const res = await self.call('PUT', `/api/users/${self.userId}`, {
      displayName: 'Self Edited',
      timezone: 'Europe/Paris',
      avatarUrl: 'https://cdn.example/self.png',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({
      displayName: 'Self Edited',
      timezone: 'Europe/Paris',
      avatarUrl: null,
    });
    expect(await auditOf(self.userId)).toEqual([]);
  });
});

describe('the audit log', () => {
  it('records plan and platform changes with who, what, when and before/after, newest first', async () => {
    const started = Date.now();
    const created = await ops.call('POST', '/api/plans', { ...planBody, name: 'Audited Plan' });
    expect(created.status).toBe(201);
    const planId = created.body.data.plan.id;
    await ops.call('PUT', `/api/plans/${planId}`, {
      ...planBody,
      name: 'Audited Plan',
      price: 120,
      status: 'INACTIVE',
    });
    // Saving the same values again changes nothing, so nothing is recorded.
    await ops.call('PUT', `/api/plans/${planId}`, {
      ...planBody,
      name: 'Audited Plan',
      price: 120,
      status: 'INACTIVE',
    });

    const platform = await ops.call('POST', '/api/platforms', {
      name: '  Friendica ',
      mediaConstraints: { image: { allowedMimeTypes: ['image/png'], maxFileSize: 1000000 } },
    });
    expect(platform.status).toBe(201);
    const platformId = platform.body.data.platform.id;
    await ops.call('PUT', `/api/platforms/${platformId}/deactivate`);
    await ops.call('PUT', `/api/platforms/${platformId}/deactivate`);
    await ops.call('PUT', `/api/platforms/${platformId}/activate`);

    const planEntries = await auditOf(planId);
    expect(planEntries.map((e) => e.action).sort()).toEqual(['plan.create', 'plan.update']);
    const update = planEntries.find((e) => e.action === 'plan.update')!;
    expect(update.before).toEqual({ price: 99, status: 'ACTIVE' });
    expect(update.after).toEqual({ price: 120, status: 'INACTIVE' });
    expect(update.createdAt.getTime()).toBeGreaterThanOrEqual(started - 1000);
    const create = planEntries.find((e) => e.action === 'plan.create')!;
    expect(create.before).toBeNull();
    expect(create.after).toMatchObject({
      name: 'Audited Plan',
      price: 99,
      features: planBody.features,
    });

    const log = await ops.call('GET', '/api/admin/audit-log?page=1&pageSize=5');
    expect(log.status).toBe(200);
    expect(log.body.meta).toMatchObject({ page: 1, pageSize: 5 });
    expect(
      log.body.data.entries.map((e: { action: string; target: { label: string } }) => [
        e.action,
        e.target.label,
      ]),
    ).toEqual([
      ['platform.activate', 'Friendica'],
      ['platform.deactivate', 'Friendica'],
      ['platform.create', 'Friendica'],
      ['plan.update', 'Audited Plan'],
      ['plan.create', 'Audited Plan'],
    ]);
    expect(log.body.data.entries[1]).toMatchObject({
      actor: { id: ops.userId, email: 'ops@example.com' },
      target: { type: 'platform', id: platformId },
      before: { isActive: true },
      after: { isActive: false },
    });
    expect(new Date(log.body.data.entries[0].createdAt).getTime()).toBeGreaterThanOrEqual(
      started - 1000,
    );
  });

  it('records operator rights granted from the command line, with no account as the actor', async () => {
    const person = await signIn(t.app, 'promoted@example.com', 'Promoted');
    expect(await setOperator(t.database.db, 'Promoted@Example.com', true)).toBe(true);
    expect(await setOperator(t.database.db, 'unknown@example.com', true)).toBe(false);
    const log = await ops.call('GET', '/api/admin/audit-log?pageSize=1');
    expect(log.body.data.entries[0]).toMatchObject({
      actor: null,
      action: 'operator.grant',
      target: { type: 'user', id: person.userId, label: 'promoted@example.com' },
      before: { isAdmin: false },
      after: { isAdmin: true },
    });
  });
});

describe('the dashboard figures', () => {
  it('counts every user, platform and plan, active or not', async () => {
    const res = await ops.call('GET', '/api/admin/overview');
    expect(res.status).toBe(200);
    expect(res.body.data.counts).toEqual({
      users: await rowCount(users),
      platforms: await rowCount(platforms),
      plans: await rowCount(plans),
    });
  });

  it('gives sign-ups and posts per day for the last 30 days in the asked time zone', async () => {
    const { owner, orgId } = await createOrg(t.app, 'poster@example.com', 'Posting Co');
    const dayMs = 86_400_000;
    // The app's today is the test's, even if midnight passes while it runs.
    const now = clock.hold().getTime();
    onTestFinished(() => clock.release());
    const made = { organizationId: orgId, createdByUserId: owner.userId, createdAt: new Date(now) };
    await t.database.db.insert(posts).values([
      { ...made, status: 'draft', content: 'a' },
      { ...made, status: 'draft', content: 'b' },
      {
        organizationId: orgId,
        status: 'published',
        content: 'two days ago',
        createdAt: new Date(now - 2 * dayMs),
      },
      // Older than the window: not counted.
      {
        organizationId: orgId,
        status: 'draft',
        content: 'old',
        createdAt: new Date(now - 40 * dayMs),
      },
    ]);
    // An old sign-up, outside the window.
    await t.database.db
      .update(users)
      .set({ createdAt: new Date(now - 45 * dayMs) })
      .where(eq(users.email, 'filler0@example.com'));

    const res = await ops.call('GET', '/api/admin/activity?timezone=UTC');
    expect(res.status).toBe(200);
    const days = res.body.data.days as Array<{ date: string; signUps: number; posts: number }>;
    expect(res.body.data.timezone).toBe('UTC');
    expect(days).toHaveLength(30);
    const today = new Date(now).toISOString().slice(0, 10);
    expect(days.at(-1)!.date).toBe(today);
    expect(days[0]!.date).toBe(new Date(now - 29 * dayMs).toISOString().slice(0, 10));
    const windowStart = Date.parse(`${days[0]!.date}T00:00:00Z`);
    const windowEnd = Date.parse(`${today}T00:00:00Z`) + dayMs;
    const signUpsInWindow = (
      await t.database.db.select({ createdAt: users.createdAt }).from(users)
    ).filter(
      (u) => u.createdAt.getTime() >= windowStart && u.createdAt.getTime() < windowEnd,
    ).length;
    expect(days.reduce((sum, d) => sum + d.signUps, 0)).toBe(signUpsInWindow);
    expect(days.at(-1)!.posts).toBe(2);
    expect(days.at(-3)!.posts).toBe(1);
    expect(days.reduce((sum, d) => sum + d.posts, 0)).toBe(3);

    // Days are the operator's: far east of UTC, "today" may already be tomorrow in UTC.
    const kiritimati = await ops.call('GET', '/api/admin/activity?timezone=Pacific/Kiritimati');
    const localToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(
      new Date(now),
    );
    expect(kiritimati.body.data.days.at(-1).date).toBe(localToday);

    const bad = await ops.call('GET', '/api/admin/activity?timezone=Nowhere/City');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('The time zone must be an IANA name such as Europe/Paris.');
  });
});
