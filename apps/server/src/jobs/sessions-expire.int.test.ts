import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { PgBoss } from 'pg-boss';
import { SessionService, SESSION_TTL_MS } from '../identity/session.service.js';
import { authSessions, users } from '../db/schema.js';
import { createTestDatabase } from '../test/database.js';
import type { Database } from '../db/client.js';
import { startJobRuntime } from './runtime.js';
import { sessionsExpireJob } from './sessions-expire.job.js';

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

describe('the sessions.expire job', () => {
  it('runs through pg-boss and removes expired sessions, keeping live ones', async () => {
    const db = database.db;
    const [user] = await db.insert(users).values({ email: 'job@example.com' }).returning();
    const past = new Date(Date.now() - 2 * SESSION_TTL_MS);
    const pastClock = new SessionService(db, 'x'.repeat(40), () => past);
    const expired = await pastClock.startSession(user!.id, { userAgent: null, ip: null });
    const now = new SessionService(db, 'x'.repeat(40));
    const live = await now.startSession(user!.id, { userAgent: null, ip: null });

    const job = sessionsExpireJob(db, now, log);
    boss = await startJobRuntime(database, 'all', [job], log);
    const done = new Promise<void>((resolve) => {
      const timer = setInterval(async () => {
        const rows = await db
          .select()
          .from(authSessions)
          .where(eq(authSessions.id, expired.sessionId));
        if (rows.length === 0) {
          clearInterval(timer);
          resolve();
        }
      }, 100);
    });
    await boss.send(job.queue, {});
    await done;
    const remaining = await db.select({ id: authSessions.id }).from(authSessions);
    expect(remaining.map((r) => r.id)).toEqual([live.sessionId]);
  });
});
