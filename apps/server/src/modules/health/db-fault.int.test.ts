import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, createFastify } from '../../app.js';
import { createRuntime, sandboxFetch } from '../../runtime.js';
import { openPostgres, type Database } from '../../db/client.js';
import { TEST_PUBLIC_URL, testConfig } from '../../test/app.js';
import { createTestDatabase } from '../../test/database.js';
import { usePostgres } from '../../test/postgres.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.js';

/**
 * PostgreSQL going away under a running server: its connections terminated again and again
 * (57P01), then the server unreachable (the relay refuses), then back. The process must live
 * through it, say 503 while the database is gone, come back by itself, and never lose an
 * accepted write nor keep one it refused.
 */
usePostgres();

let dropDatabase: () => Promise<void>;
let database: Database;
let proxy: TcpProxy;
let adminUrl: string;
let dbName: string;
let app: FastifyInstance;

beforeAll(async () => {
  const created = await createTestDatabase();
  if (created.database.kind !== 'postgres') {
    await created.drop();
    throw new Error('This test needs PostgreSQL.');
  }
  dropDatabase = created.drop;
  const direct = new URL(created.database.url);
  dbName = direct.pathname.slice(1);
  adminUrl = created.database.url;
  await created.database.close();
  proxy = await startTcpProxy(direct.hostname, Number(direct.port || 5432));
  const relayed = new URL(direct);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(proxy.port);
  database = await openPostgres(relayed.toString(), 6);
  // Two writers at full speed for 10 s: more than the default per-user write limit allows.
  const config = testConfig({ RATE_LIMIT_WRITES_PER_MINUTE: '100000' });
  app = createFastify(config, { logger: false });
  const runtime = await createRuntime(config, database, {
    http: sandboxFetch(app, config),
    log: app.log,
    jobs: null,
  });
  await buildApp(app, config, database, runtime);
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await database?.close().catch(() => {});
  await proxy?.close();
  await dropDatabase?.();
});

async function terminateBackends(admin: pg.Client) {
  await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [dbName],
  );
}

async function readyz() {
  return (await app.inject({ method: 'GET', url: '/api/readyz' })).statusCode;
}

describe('PostgreSQL connections lost under load', () => {
  it('survives a transaction whose connection is terminated while it waits', async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      // A job holding a transaction open across a network call: its idle, checked-out client
      // loses the connection. Unhandled, that 'error' event used to end the process.
      const held = database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await sleep(500);
        await tx.execute(sql`select 1`);
      });
      await sleep(150);
      await terminateBackends(admin);
      await expect(held).rejects.toThrow();
      let status = 0;
      for (let i = 0; i < 20 && status !== 200; i++) {
        status = await readyz();
        if (status !== 200) await sleep(100);
      }
      expect(status).toBe(200);
    } finally {
      await admin.end();
    }
  });

  it('answers 503 while it is gone, recovers by itself, and loses or invents no write', async () => {
    const { owner, orgId } = await createOrg(app, 'fault@db.test', 'Fault Co');
    // An organization holds a bounded number of roles, so each writer moves on to another of the
    // owner's organizations before it fills one.
    const ROLES_PER_ORG = 40;
    const orgsOf = async (lane: number) => {
      const orgs: Array<{ owner: Actor; orgId: string }> = [];
      for (let n = 0; n < 8; n++)
        orgs.push(await createOrg(app, `fault${lane}-${n}@db.test`, `Fault ${lane}-${n}`));
      return orgs;
    };
    const laneOrgs = [await orgsOf(1), await orgsOf(2)];
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const answers: Array<{ orgId: string; name: string; status: number; body: any }> = [];
    const readiness: number[] = [];
    let writing = true;

    async function writer(lane: number) {
      const orgs = laneOrgs[lane - 1]!;
      for (let i = 0; writing && i < orgs.length * ROLES_PER_ORG; i++) {
        const name = `Role ${lane}-${i}`;
        const { owner: actor, orgId: target } = orgs[Math.floor(i / ROLES_PER_ORG)]!;
        const res = await actor.call('POST', `/api/organizations/${target}/roles`, {
          name,
          permissionIds: ['post:create'],
        });
        answers.push({ orgId: target, name, status: res.status, body: res.body });
        await sleep(30);
      }
    }
    const writers = [writer(1), writer(2)];
    const prober = (async () => {
      while (writing) {
        readiness.push(await readyz());
        await sleep(100);
      }
    })();

    const started = Date.now();
    try {
      // 0–4 s: connections terminated every 300 ms.
      while (Date.now() - started < 4_000) {
        await terminateBackends(admin);
        await sleep(300);
      }
      // 4–7 s: the database cannot be reached at all.
      proxy.down();
      await sleep(1_000);
      const during = await app.inject({
        method: 'POST',
        url: `/api/organizations/${orgId}/roles`,
        headers: {
          cookie: owner.jar.header(),
          origin: TEST_PUBLIC_URL,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ name: 'During the outage', permissionIds: [] }),
      });
      expect(during.statusCode).toBe(503);
      expect(during.headers['retry-after']).toBeDefined();
      answers.push({
        orgId,
        name: 'During the outage',
        status: during.statusCode,
        body: during.json(),
      });
      await sleep(2_000);
      proxy.up();
      // 7–10 s: back, with a few more terminations.
      while (Date.now() - started < 10_000) {
        await terminateBackends(admin);
        await sleep(500);
      }
    } finally {
      writing = false;
      await Promise.all([...writers, prober]);
      await admin.end();
    }

    // Back by itself.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = await readyz();
      if (status !== 200) await sleep(200);
    }
    expect(status).toBe(200);
    expect(readiness).toContain(503);
    // No connection was leaked by a transaction that failed on a dead one.
    if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    expect(database.pool.totalCount - database.pool.idleCount).toBe(0);

    // Every failure is a 503 in the envelope (with Retry-After), never a 500.
    const failures = answers.filter((a) => a.status !== 201);
    expect(answers.length).toBeGreaterThan(20);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      expect({ name: failure.name, status: failure.status }).toEqual({
        name: failure.name,
        status: 503,
      });
      expect(failure.body).toMatchObject({ status: 'error', code: 'UNAVAILABLE' });
    }

    const stored = new Set<string>();
    for (const { owner: reader, orgId: id } of [{ owner, orgId }, ...laneOrgs.flat()]) {
      const roles = (await reader.call('GET', `/api/organizations/${id}/roles`)).body as Array<{
        name: string;
      }>;
      for (const role of roles) stored.add(`${id} ${role.name}`);
    }
    const key = (a: { orgId: string; name: string }) => `${a.orgId} ${a.name}`;
    const accepted = answers.filter((a) => a.status === 201).map(key);
    const refused = failures.map(key);
    expect(accepted.filter((name) => !stored.has(name))).toEqual([]);
    expect(refused.filter((name) => stored.has(name))).toEqual([]);
  }, 60_000);
});
