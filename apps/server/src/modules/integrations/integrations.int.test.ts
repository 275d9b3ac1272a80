import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_NAMES } from '@herald/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import { integrations, notifications, sandboxRecords } from '../../db/schema.js';
import { refreshDueTokens } from '../../jobs/tokens-refresh.job.js';
import { createTestApp, type TestApp, TEST_PUBLIC_URL } from '../../test/app.js';
import { createOrg, signIn } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    ADMIN_EMAILS: 'ops@example.com',
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  });
});
afterAll(() => t.close());

const rowsOf = (orgId: string) =>
  t.database.db.select().from(integrations).where(eq(integrations.organizationId, orgId));
/** A redirect's query as a person would read it. */
const readable = (location: string) => decodeURIComponent(location.replace(/\+/g, ' '));
const settings = (params: Record<string, string>) =>
  `${TEST_PUBLIC_URL}/settings?${new URLSearchParams(params)}`;

describe('supported platforms', () => {
  it('seeds every network the contract names with its media rules, all connectable through sandboxes here', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/platforms/supported' });
    const platforms = res.json().data.platforms as Array<{
      name: string;
      mediaConstraints: any;
      sandbox: boolean;
    }>;
    expect(platforms.map((p) => p.name).sort()).toEqual([...PLATFORM_NAMES].sort());
    expect(PLATFORM_NAMES).toContain('YouTube');
    const x = platforms.find((p) => p.name === 'X')!;
    expect(x.mediaConstraints.text).toMatchObject({ maxLength: 280, counting: 'x-weighted' });
    expect(x.mediaConstraints.image.maxFileSize).toBe(5 * 1024 * 1024);
    expect(x.sandbox).toBe(true);
  });

  it('lets operators add platforms with a valid constraints shape and toggle them', async () => {
    const ops = await signIn(t.app, 'ops@example.com');
    const someone = await signIn(t.app, 'plain@example.com');
    expect((await someone.call('POST', '/api/platforms', { name: 'Friendica' })).status).toBe(403);
    const blank = await ops.call('POST', '/api/platforms', { name: '  ' });
    expect(blank.body.message).toContain('Name is required.');
    const badShape = await ops.call('POST', '/api/platforms', {
      name: 'Friendica',
      mediaConstraints: { image: { maxFileSize: 5 } },
    });
    expect(badShape.status).toBe(400);
    const made = await ops.call('POST', '/api/platforms', {
      name: ' Friendica ',
      mediaConstraints: {},
    });
    expect(made.status).toBe(201);
    expect(made.body.data.platform).toMatchObject({
      name: 'Friendica',
      isActive: true,
      connectable: false,
    });
    expect((await ops.call('POST', '/api/platforms', { name: 'friendica' })).status).toBe(409);
    const id = made.body.data.platform.id;
    expect(
      (await ops.call('PUT', `/api/platforms/${id}/deactivate`)).body.data.platform.isActive,
    ).toBe(false);
    const supported = (
      await t.app.inject({ method: 'GET', url: '/api/platforms/supported' })
    ).json().data.platforms;
    expect(supported.map((p: { name: string }) => p.name)).not.toContain('Friendica');
    expect(
      (await ops.call('GET', '/api/platforms')).body.data.platforms.map(
        (p: { name: string }) => p.name,
      ),
    ).toContain('Friendica');
    expect(
      (await ops.call('PUT', `/api/platforms/${id}/activate`)).body.data.platform.isActive,
    ).toBe(true);
  });
});

describe('refreshing a token the network refuses to refresh yet', () => {
  it("answers 409 with the network's reason, not 503", async () => {
    const { owner, orgId } = await createOrg(t.app, 'young.token@example.com', 'Young Tokens');
    const done = await connectThroughSandbox(t.app, owner, 'threads', orgId);
    expect(done).toBe(settings({ connected: 'Threads' }));
    // Threads refreshes a long-lived token only once it is 24 hours old.
    const res = await owner.call('GET', `/api/auth/threads/refresh?orgId=${orgId}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 'error', code: 'CONFLICT' });
    expect(res.body.message).toMatch(/Failed to refresh token for Threads\..*24 hours old/);
  });
});

describe('connecting an X account through its sandbox', () => {
  it('connects, lists it, stores the tokens encrypted, refreshes and disconnects', async () => {
    const { owner, orgId } = await createOrg(t.app, 'x.owner@example.com', 'X Fans');
    const done = await connectThroughSandbox(t.app, owner, 'x', orgId, { account: 'herald_fan' });
    expect(done).toBe(settings({ connected: 'X' }));
    const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
      .platforms;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      status: 'CONNECTED',
      platform: { name: 'X' },
      sandbox: true,
      metadata: { username: 'herald_fan' },
    });
    expect(JSON.stringify(list)).not.toMatch(/access_?token|refresh_?token/i);

    // At rest: ciphertexts only; the tokens the sandbox issued appear nowhere in the row.
    const [row] = await rowsOf(orgId);
    expect(row!.accessTokenEnc).toMatch(/^v1\./);
    expect(row!.refreshTokenEnc).toMatch(/^v1\./);
    const issued = await t.database.db
      .select()
      .from(sandboxRecords)
      .where(eq(sandboxRecords.network, 'x'));
    const rowText = JSON.stringify(row);
    const secrets = issued
      .flatMap((r) => [
        r.id,
        ...Object.values(r.data).filter((v): v is string => typeof v === 'string'),
      ])
      .filter((s) => s.length >= 20);
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(rowText).not.toContain(secret);

    const refreshed = await owner.call('GET', `/api/auth/x/refresh?orgId=${orgId}`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.message).toBe('Access tokens refreshed for X');
    const [after] = await rowsOf(orgId);
    expect(after!.accessTokenEnc).not.toBe(row!.accessTokenEnc);
    expect(after!.refreshTokenEnc).not.toBe(row!.refreshTokenEnc);

    // Reconnecting the same account updates it in place.
    expect(await connectThroughSandbox(t.app, owner, 'x', orgId, { account: 'herald_fan' })).toBe(
      settings({ connected: 'X' }),
    );
    const again = await rowsOf(orgId);
    expect(again).toHaveLength(1);
    expect(again[0]!.id).toBe(row!.id);

    const off = await owner.call('POST', `/api/x/disconnect/${orgId}`);
    expect(off.status).toBe(200);
    expect(off.body.data.message).toBe('X disconnected successfully.');
    expect(await rowsOf(orgId)).toHaveLength(0);
  });

  it('keeps only a web address of the picture the network gives for the account', async () => {
    const network = t.networks.get('x')!;
    const adapter = network.adapter;
    const pictures = ['javascript:alert(1)', 'https://pbs.example.test/p/1.jpg'];
    try {
      for (const [i, picture] of pictures.entries()) {
        network.adapter = {
          ...adapter,
          connect: async (input) =>
            (await adapter.connect(input)).map((a) => ({ ...a, pictureUrl: picture })),
        };
        const { owner, orgId } = await createOrg(t.app, `picture${i}@example.com`);
        const done = await connectThroughSandbox(t.app, owner, 'x', orgId, {
          account: `Picture ${i}`,
        });
        expect(done).toBe(settings({ connected: 'X' }));
        const [row] = await rowsOf(orgId);
        const listed = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
        const kept = picture.startsWith('https:') ? picture : null;
        expect(row!.pictureUrl).toBe(kept);
        expect(listed.body.data.platforms[0].metadata.pictureUrl).toBe(kept);
      }
    } finally {
      network.adapter = adapter;
    }
  });

  it('refuses a tampered or foreign state, and a denial, storing nothing', async () => {
    const { owner, orgId } = await createOrg(t.app, 'x.careful@example.com', 'Careful');
    const denied = await connectThroughSandbox(t.app, owner, 'x', orgId, { decision: 'deny' });
    expect(denied).toContain('/settings?connectError=');
    const start = await owner.call('GET', `/api/auth/x?orgId=${orgId}`);
    expect(start.status).toBe(302);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/auth/x/callback?code=abc&state=forged.state',
      headers: { cookie: owner.jar.header() },
    });
    expect(readable(bad.headers.location as string)).toContain(
      'This connection link has expired or was altered',
    );
    const other = await signIn(t.app, 'x.intruder@example.com');
    const realState = new URL(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/auth/x?orgId=${orgId}`,
          headers: { cookie: owner.jar.header() },
        })
      ).headers.location as string,
    ).searchParams.get('state')!;
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/auth/x/callback?code=abc&state=${encodeURIComponent(realState)}`,
      headers: { cookie: other.jar.header() },
    });
    expect(readable(foreign.headers.location as string)).toContain('started by another account');
    expect(await rowsOf(orgId)).toHaveLength(0);
  });

  it('refuses the callback when the person left the organization after starting', async () => {
    const { owner, orgId } = await createOrg(t.app, 'x.leaver.owner@example.com', 'Left Behind');
    const { addMember } = await import('../../test/factories.js');
    const admin = await addMember(t.app, owner, orgId, 'x.leaver@example.com', {
      roleId: (await owner.call('GET', `/api/organizations/${orgId}/roles`)).body.find(
        (r: { name: string }) => r.name === 'Admin',
      ).id,
    });
    const start = await admin.actor.call('GET', `/api/auth/x?orgId=${orgId}`);
    const state = new URL(start.location!).searchParams.get('state')!;
    await admin.actor.call('DELETE', `/api/organizations/${orgId}/members/${admin.memberId}`);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/auth/x/callback?code=whatever&state=${encodeURIComponent(state)}`,
      headers: { cookie: admin.actor.jar.header() },
    });
    expect(readable(res.headers.location as string)).toContain(
      'You can no longer connect accounts to this organization.',
    );
    expect(await rowsOf(orgId)).toHaveLength(0);
  });

  it('sends a browser without a plan back to /settings with the subscription sentence', async () => {
    const { owner, orgId } = await createOrg(t.app, 'x.noplan@example.com', 'No Plan', {
      trial: null,
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/auth/x?orgId=${orgId}`,
      headers: { cookie: owner.jar.header() },
    });
    expect(res.statusCode).toBe(302);
    expect(readable(res.headers.location as string)).toContain(
      'No active subscription found. Please subscribe to a plan to connect accounts.',
    );
  });

  it('refuses unknown networks and members without account:connect', async () => {
    const { owner, orgId } = await createOrg(t.app, 'x.perm@example.com', 'Perms');
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/api/auth/myspace?orgId=${orgId}`,
      headers: { cookie: owner.jar.header() },
    });
    expect(unknown.statusCode).toBe(302);
    expect(readable(unknown.headers.location as string)).toContain(
      'Herald cannot connect "myspace" accounts.',
    );
    const stranger = await signIn(t.app, 'x.stranger@example.com');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/auth/x?orgId=${orgId}`,
      headers: { cookie: stranger.jar.header() },
    });
    expect(readable(res.headers.location as string)).toContain(
      'You are not a member of this organization.',
    );
  });

  it('caps connected accounts at the plan’s connectedPlatforms', async () => {
    const { owner, orgId } = await createOrg(t.app, 'x.many@example.com', 'Many', {
      trial: 'Starter',
    });
    for (const account of ['one', 'two', 'three']) {
      expect(await connectThroughSandbox(t.app, owner, 'x', orgId, { account })).toBe(
        settings({ connected: 'X' }),
      );
    }
    const fourth = await connectThroughSandbox(t.app, owner, 'x', orgId, { account: 'four' });
    expect(readable(fourth)).toContain('Your Starter plan allows 3 connected accounts.');
    expect(await rowsOf(orgId)).toHaveLength(3);
  });
});

describe('token upkeep', () => {
  it('refreshes tokens before they expire, and marks a refused refresh for reconnection with a notification', async () => {
    const { owner, orgId } = await createOrg(t.app, 'upkeep@example.com', 'Upkeep');
    await connectThroughSandbox(t.app, owner, 'x', orgId, { account: 'kept' });
    await connectThroughSandbox(t.app, owner, 'x', orgId, { account: 'lost' });
    await t.database.db
      .update(integrations)
      .set({ accessTokenExpiresAt: sql`now() + interval '5 minutes'` })
      .where(eq(integrations.organizationId, orgId));
    const before = await rowsOf(orgId);
    const scenario = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
    expect(scenario.status).toBe(200);
    const knob = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/x/_emu/scenario',
      headers: { cookie: owner.jar.header() },
      payload: { account: 'lost', knob: 'refresh_fails', on: true },
    });
    expect(knob.statusCode).toBeLessThan(300);
    const result = await refreshDueTokens({
      db: t.database.db,
      cipher: t.cipher,
      networks: t.networks,
      log: t.app.log,
    });
    expect(result).toEqual({ refreshed: 1, failed: 1 });
    const after = await rowsOf(orgId);
    const kept = after.find((r) => r.username === 'kept')!;
    const lost = after.find((r) => r.username === 'lost')!;
    expect(kept.status).toBe('CONNECTED');
    expect(kept.accessTokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 60 * 60 * 1000);
    expect(kept.accessTokenEnc).not.toBe(before.find((r) => r.username === 'kept')!.accessTokenEnc);
    expect(lost.status).toBe('REFRESH_FAILED');
    expect(lost.lastError).toBeTruthy();
    const [n] = await t.database.db
      .select({ n: count() })
      .from(notifications)
      .where(
        and(
          eq(notifications.organizationId, orgId),
          sql`${notifications.type} = 'PLATFORM_DISCONNECTED'`,
        ),
      );
    expect(n!.n).toBe(1);
  });
});
