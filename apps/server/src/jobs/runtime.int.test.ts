import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { PgBoss } from 'pg-boss';
import { createTestDatabase } from '../test/database.js';
import type { Database } from '../db/client.js';
import { createJobBoss, startHandlers, startQueues, type JobDefinition } from './runtime.js';

let database: Database;
let drop: () => Promise<void>;
const bosses: PgBoss[] = [];
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
});
afterAll(async () => {
  for (const boss of bosses) await boss.stop({ graceful: false });
  await drop();
});

const job = (cron: string): JobDefinition => ({
  queue: 'runtime-test.cron.v1',
  cron,
  handle: async () => {},
});

/** One start of a working process: pg-boss, the queue, the handler and the schedule. */
async function start(definition: JobDefinition) {
  const boss = createJobBoss(database, 'all', log);
  bosses.push(boss);
  await startQueues(boss, [definition]);
  await startHandlers(boss, 'all', [definition]);
  const [schedule] = await boss.getSchedules(definition.queue);
  await boss.stop({ graceful: false });
  return schedule!;
}

it('schedules a cron job once, keeps it as stored on the next start, and rewrites it when it changes', async () => {
  const first = await start(job('0 * * * *'));
  expect(first).toMatchObject({ cron: '0 * * * *', timezone: 'UTC' });

  // The same schedule at the next start: not written again.
  const again = await start(job('0 * * * *'));
  expect(again.cron).toBe('0 * * * *');
  expect(again.updatedOn).toEqual(first.updatedOn);

  // Another time: written.
  const changed = await start(job('30 2 * * *'));
  expect(changed.cron).toBe('30 2 * * *');
  expect(changed.updatedOn.getTime()).toBeGreaterThan(first.updatedOn.getTime());
});

it('wakes the workers of a queue that asks for it when a job is sent, not at their next poll', async () => {
  const handled: string[] = [];
  const definition: JobDefinition<{ id: string }> = {
    queue: 'runtime-test.wake.v1',
    // A poll far longer than the wait below: only the wake-up can bring the job in time.
    work: { pollingIntervalSeconds: 120 },
    wakeOnSend: true,
    handle: async (payloads) => {
      handled.push(...payloads.map((p) => p.id));
    },
  };
  const boss = createJobBoss(database, 'all', log);
  bosses.push(boss);
  await startQueues(boss, [definition]);
  await startHandlers(boss, 'all', [definition]);
  // The worker's first fetch (at start) found nothing; it now sleeps out its poll.
  await new Promise((resolve) => setTimeout(resolve, 1000));

  await boss.send(definition.queue, { id: 'now' });
  await vi.waitFor(() => expect(handled).toEqual(['now']), { timeout: 20_000, interval: 100 });
  expect((await boss.getQueue(definition.queue))?.notify).toBe(true);
});

it('turns the wake-up on for a queue made before it asked for one', async () => {
  const boss = createJobBoss(database, 'api', log);
  bosses.push(boss);
  const queue = 'runtime-test.upgraded.v1';
  await boss.start();
  await boss.createQueue(queue);
  await startQueues(boss, [{ queue, wakeOnSend: true, handle: async () => {} }]);
  expect((await boss.getQueue(queue))?.notify).toBe(true);
});
