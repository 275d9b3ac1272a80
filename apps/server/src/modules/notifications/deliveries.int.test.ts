import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { notificationDeliveries, organizations, users } from '../../db/schema.js';
import type { MailMessage } from '../../lib/mailer.js';
import { createTestDatabase } from '../../test/database.js';
import { lastDigestTime, sendDigests, sendEmails } from './deliveries.js';
import { recordNotification, savePreferences } from './notifications.service.js';

let database: Database;
let drop: () => Promise<void>;
let orgId: string;
let userId: string;
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  const [user] = await database.db.insert(users).values({ email: 'mail.me@cafe.test' }).returning();
  userId = user!.id;
  const [org] = await database.db.insert(organizations).values({ name: 'Mail Cafe' }).returning();
  orgId = org!.id;
});
afterAll(() => drop());

const record = (type: 'POST_FAILED' | 'POST_PUBLISHED' | 'POST_MENTIONED', message: string) =>
  recordNotification(
    database.db,
    orgId,
    { userIds: [userId] },
    { type, priority: 'HIGH', message },
  );

function mailbox() {
  const sent: MailMessage[] = [];
  return { sent, mailer: { send: async (m: MailMessage) => void sent.push(m) } };
}

describe('notifications by email', () => {
  it('emails a failure by default, not a success, and each only once', async () => {
    await record('POST_FAILED', "'Spring menu' could not be published to X: Token expired.");
    await record('POST_PUBLISHED', "'Spring menu' was published to all 2 accounts.");
    const box = mailbox();
    const deps = { db: database.db, mailer: box.mailer, publicUrl: 'https://herald.test', log };
    expect(await sendEmails(deps)).toBe(1);
    expect(box.sent[0]).toMatchObject({
      to: 'mail.me@cafe.test',
      subject: 'Mail Cafe: Post Failed',
    });
    expect(box.sent[0]!.text).toContain("'Spring menu' could not be published to X");
    expect(box.sent[0]!.text).toContain('https://herald.test/notifications');
    expect(await sendEmails(deps)).toBe(0);
  });

  it('gathers the day in one digest for what the member chose, and nothing by email then', async () => {
    await savePreferences(database.db, orgId, userId, {
      PUBLISHING_SUCCEEDED: { inApp: true, email: false, digest: true },
      MENTIONS: { inApp: false, email: false, digest: true },
    });
    await record('POST_PUBLISHED', "'A' was published to all 3 accounts.");
    await record('POST_MENTIONED', 'Ada mentioned you on \u2018A\u2019.');
    const box = mailbox();
    // Neither the organization nor the member has a zone: the digest goes at 07:00 UTC.
    const tomorrow = new Date(Date.now() + 86_400_000);
    tomorrow.setUTCHours(7, 0, 0, 0);
    const deps = {
      db: database.db,
      mailer: box.mailer,
      publicUrl: 'https://herald.test',
      log,
      now: () => tomorrow,
    };
    expect(await sendEmails(deps)).toBe(0);
    expect(await sendDigests(deps)).toBe(1);
    expect(box.sent).toHaveLength(1);
    expect(box.sent[0]!.subject).toBe('Mail Cafe: your daily digest (2 notifications)');
    expect(box.sent[0]!.text).toContain("Post Published: 'A' was published to all 3 accounts.");
    expect(box.sent[0]!.text).toContain('Mentioned You: Ada mentioned you');
    expect(await sendDigests(deps)).toBe(0);
  });

  it('drops what waits on a server without SMTP', async () => {
    await record('POST_FAILED', 'Nobody can read this by email.');
    const deps = { db: database.db, mailer: null, publicUrl: 'https://herald.test', log };
    expect(await sendEmails(deps)).toBe(0);
    expect(await database.db.select().from(notificationDeliveries)).toEqual([]);
  });
});

describe('the daily digest hour', () => {
  it('is the last 07:00 of the zone, today or yesterday', () => {
    const at = (iso: string, zone: string) => lastDigestTime(new Date(iso), zone).toISOString();
    expect(at('2026-01-15T06:00:00Z', 'Europe/Paris')).toBe('2026-01-15T06:00:00.000Z');
    expect(at('2026-01-15T05:59:00Z', 'Europe/Paris')).toBe('2026-01-14T06:00:00.000Z');
    expect(at('2026-07-15T05:00:00Z', 'Europe/Paris')).toBe('2026-07-15T05:00:00.000Z');
    expect(at('2026-01-15T11:00:00Z', 'America/New_York')).toBe('2026-01-14T12:00:00.000Z');
    expect(at('2026-01-15T02:00:00Z', 'Asia/Kathmandu')).toBe('2026-01-15T01:15:00.000Z');
  });

  it("goes out at 07:00 on the member's clock, or the organization's when it has a zone", async () => {
    const db = database.db;
    const [paris, newYork] = await db
      .insert(users)
      .values([
        { email: 'paris@digest.test', timezone: 'Europe/Paris' },
        { email: 'new-york@digest.test', timezone: 'America/New_York' },
      ])
      .returning();
    const [ownZones, tokyo] = await db
      .insert(organizations)
      .values([{ name: 'Own Zones' }, { name: 'Tokyo Team', defaultTimeZone: 'Asia/Tokyo' }])
      .returning();
    const deliver = (userId: string, organizationId: string, createdAt: string) =>
      db.insert(notificationDeliveries).values({
        organizationId,
        userId,
        channel: 'DIGEST',
        type: 'POST_PUBLISHED',
        message: `Published (${createdAt}).`,
        createdAt: new Date(createdAt),
      });
    await deliver(paris!.id, ownZones!.id, '2026-01-14T20:00:00Z');
    await deliver(newYork!.id, ownZones!.id, '2026-01-14T20:00:00Z');
    // 07:30 in Paris: after that day's digest, so it waits for the next one.
    await deliver(paris!.id, ownZones!.id, '2026-01-15T06:30:00Z');
    await deliver(paris!.id, tokyo!.id, '2026-01-15T10:00:00Z');
    await deliver(newYork!.id, tokyo!.id, '2026-01-15T10:00:00Z');

    const box = mailbox();
    const run = (iso: string) =>
      sendDigests({
        db,
        mailer: box.mailer,
        publicUrl: 'https://herald.test',
        log,
        now: () => new Date(iso),
      });
    const sentTo = () => box.sent.splice(0).map((m) => `${m.to} ${m.subject}`);

    expect(await run('2026-01-15T05:45:00Z')).toBe(0); // 06:45 in Paris
    expect(await run('2026-01-15T06:00:00Z')).toBe(1); // 07:00 in Paris
    expect(sentTo()).toEqual(['paris@digest.test Own Zones: your daily digest (1 notification)']);
    expect(await run('2026-01-15T07:00:00Z')).toBe(0);
    expect(await run('2026-01-15T11:45:00Z')).toBe(0); // 06:45 in New York
    expect(await run('2026-01-15T12:00:00Z')).toBe(1); // 07:00 in New York
    expect(sentTo()).toEqual([
      'new-york@digest.test Own Zones: your daily digest (1 notification)',
    ]);
    // Tokyo Team has a zone: both members get its digest at 07:00 in Tokyo (22:00 UTC).
    expect(await run('2026-01-15T21:45:00Z')).toBe(0);
    expect(await run('2026-01-15T22:00:00Z')).toBe(2);
    expect(sentTo().sort()).toEqual([
      'new-york@digest.test Tokyo Team: your daily digest (1 notification)',
      'paris@digest.test Tokyo Team: your daily digest (1 notification)',
    ]);
    // No worker ran at 07:00 in Paris the next day: the next run sends what was due.
    expect(await run('2026-01-16T09:00:00Z')).toBe(1);
    expect(sentTo()).toEqual(['paris@digest.test Own Zones: your daily digest (1 notification)']);
    expect(await db.select().from(notificationDeliveries)).toEqual([]);
  });
});
