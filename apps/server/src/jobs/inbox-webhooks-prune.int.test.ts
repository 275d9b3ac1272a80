import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { inboxWebhookEvents } from '../db/schema.js';
import { createTestDatabase } from '../test/database.js';
import type { Database } from '../db/client.js';
import { inboxWebhooksPruneJob, WEBHOOK_EVENT_RETENTION_DAYS } from './inbox-webhooks-prune.job.js';

let database: Database;
let drop: () => Promise<void>;
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const DAY = 24 * 3600_000;

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
});
afterAll(async () => {
  await drop();
});

describe('the inbox.webhooks-prune job', () => {
  it('deletes processed deliveries past the retention and keeps recent and unprocessed ones', async () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const old = WEBHOOK_EVENT_RETENTION_DAYS + 1;
    const delivery = (
      name: string,
      receivedAt: Date,
      processedAt: Date | null,
      error?: string,
    ) => ({
      provider: 'meta',
      body: Buffer.from(`{"${name}":true}`),
      headers: { 'x-name': name },
      receivedAt,
      processedAt,
      error: error ?? null,
    });
    await database.db
      .insert(inboxWebhookEvents)
      .values([
        delivery('old read', ago(old), ago(old)),
        delivery('old unreadable', ago(old), ago(old), 'The delivery could not be read.'),
        delivery('recent read', ago(1), ago(1)),
        delivery('old, never read', ago(old + 30), null),
      ]);

    await inboxWebhooksPruneJob(database.db, log, () => now).handle([{}]);

    const left = await database.db
      .select({ headers: inboxWebhookEvents.headers })
      .from(inboxWebhookEvents);
    expect(left.map((r) => r.headers['x-name']).sort()).toEqual(['old, never read', 'recent read']);
  });
});
