import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { PgBoss } from 'pg-boss';
import { organizations, pendingConnections, platforms, users } from '../db/schema.js';
import { createTestDatabase } from '../test/database.js';
import type { Database } from '../db/client.js';
import { startJobRuntime } from './runtime.js';
import { pendingConnectionsPurgeJob } from './pending-connections-purge.job.js';

let database: Database;
let drop: () => Promise<void>;
let boss: PgBoss;
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
});
afterAll(async () => {
  await boss?.stop({ graceful: false });
  await drop();
});

describe('the connections.pending-purge job', () => {
  it('is scheduled, and removes expired account choices (with their tokens), keeping live ones', async () => {
    const db = database.db;
    const [user] = await db.insert(users).values({ email: 'pending@example.com' }).returning();
    const [org] = await db.insert(organizations).values({ name: 'Pending Co' }).returning();
    const [platform] = await db.select().from(platforms).limit(1);
    const row = (expiresAt: Date) => ({
      organizationId: org!.id,
      userId: user!.id,
      platformId: platform!.id,
      accountsEnc: 'v1:encrypted-tokens',
      expiresAt,
    });
    await db.insert(pendingConnections).values(row(new Date(Date.now() - 60_000)));
    const [live] = await db
      .insert(pendingConnections)
      .values(row(new Date(Date.now() + 10 * 60_000)))
      .returning();

    const job = pendingConnectionsPurgeJob(db, log);
    expect(job.cron).toBeDefined();
    boss = await startJobRuntime(database, 'all', [job], log);
    expect((await boss.getSchedules()).map((s) => s.name)).toContain(job.queue);
    await boss.send(job.queue, {});
    await expect
      .poll(async () => (await db.select().from(pendingConnections)).map((r) => r.id), {
        timeout: 15_000,
        interval: 100,
      })
      .toEqual([live!.id]);
  });
});
