import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { notificationDeliveries, organizations, users } from '../../db/schema.js';
import type { MailMessage } from '../../lib/mailer.js';
import { createTestDatabase } from '../../test/database.js';
import { sendDigests, sendEmails } from './deliveries.js';
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
    const deps = { db: database.db, mailer: box.mailer, publicUrl: 'https://herald.test', log };
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
