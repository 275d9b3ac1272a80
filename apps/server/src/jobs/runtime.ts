import { fromPglite, PgBoss, type Schedule } from 'pg-boss';
import { recordLocalWorker } from '../lib/local-workers.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';

export interface JobDefinition<T = Record<string, never>> {
  /** Queue name, versioned when the payload changes shape. */
  queue: string;
  /** Cron expression (UTC) when the job runs on a schedule. */
  cron?: string;
  retryLimit?: number;
  /**
   * pg-boss's queue policy, set when the queue is created: `short` keeps one queued job per
   * `singletonKey` (with `standard`, the default, a key dedupes nothing).
   */
  policy?: 'standard' | 'short';
  /** How the worker fetches: several jobs at a time and a short poll for latency-bound queues. */
  work?: { batchSize?: number; pollingIntervalSeconds?: number };
  /**
   * Wake the workers the moment a job becomes due on this queue (PostgreSQL NOTIFY, sent in the
   * transaction that creates or moves the job), instead of at their next poll. For queues a person
   * waits on: a post published now is fetched at once, not up to a polling interval later.
   */
  wakeOnSend?: boolean;
  /**
   * `signal` aborts when the worker stops and the grace period is over: pg-boss has handed the
   * jobs back (another worker retries them), so a handler that can stop at a safe point does.
   */
  handle(payloads: T[], signal?: AbortSignal): Promise<void>;
}

/** A job of any payload (each definition reads its own payload type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobDefinition = JobDefinition<any>;

export type JobRole = 'api' | 'worker' | 'all';

/** The handlers running in this process, per pg-boss instance (`handlersSettled`). */
const running = new WeakMap<PgBoss, Set<Promise<unknown>>>();

/**
 * pg-boss on the application's own database, not started yet: PGlite in the embedded shape,
 * PostgreSQL otherwise. Only worker processes run handlers and cron; API processes only send.
 */
export function createJobBoss(database: Database, role: JobRole, log: FastifyBaseLogger): PgBoss {
  const runsWork = role !== 'api';
  // A working process listens for the wake-ups of `wakeOnSend` queues (one more connection on
  // PostgreSQL; PGlite's own listen when embedded); polling stays on as the floor.
  const common = { schedule: runsWork, supervise: runsWork, useListenNotify: runsWork };
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', ...common })
      : new PgBoss({ connectionString: database.url, max: 4, ...common });
  // pg-boss reports connection trouble here; without a listener the process would crash.
  boss.on('error', (err) => log.error({ err }, 'job runtime error'));
  return boss;
}

/** Starts `boss`, creates the jobs' queues and, in a working role, their handlers and cron. */
export async function startJobs(boss: PgBoss, role: JobRole, jobs: AnyJobDefinition[]) {
  await startQueues(boss, jobs);
  await startHandlers(boss, role, jobs);
}

/**
 * Starts `boss` and creates the jobs' queues that do not exist yet: from then on jobs can be sent.
 * The existing ones are read in one statement (creating one that exists changes nothing, and
 * asking for each took a few statements apiece: a sixth of an embedded start).
 */
export async function startQueues(boss: PgBoss, jobs: AnyJobDefinition[]) {
  await boss.start();
  const names = jobs.map((job) => job.queue);
  const existing = new Map((await boss.getQueues(names)).map((queue) => [queue.name, queue]));
  for (const job of jobs) {
    const notify = job.wakeOnSend ?? false;
    const queue = existing.get(job.queue);
    if (!queue)
      await boss.createQueue(job.queue, {
        retryLimit: job.retryLimit ?? 2,
        notify,
        ...(job.policy ? { policy: job.policy } : {}),
      });
    // A queue made before it woke its workers (or the other way round) follows the definition.
    else if (Boolean(queue.notify) !== notify) await boss.updateQueue(job.queue, { notify });
  }
}

/**
 * In a working role, the jobs' handlers and cron schedules (after `startQueues`). A schedule
 * stored as wanted is not written again: the stored ones are read in one statement, where
 * writing each was ten statements of every start.
 */
export async function startHandlers(boss: PgBoss, role: JobRole, jobs: AnyJobDefinition[]) {
  if (role === 'api') return;
  // Read before the handlers start: their first fetches would go first on the embedded database.
  const stored = new Map((await boss.getSchedules()).map((s) => [`${s.name}\n${s.key}`, s]));
  const handlers = running.get(boss) ?? new Set();
  running.set(boss, handlers);
  for (const job of jobs) {
    // A queue that wakes its workers still polls at its own pace: a job due later (a scheduled
    // post, a retry after a wait) sends no wake-up when its time comes, and pg-boss would
    // otherwise relax the poll of a woken queue to 30 s.
    const work = job.work ?? {};
    const options = job.wakeOnSend
      ? { ...work, notifyPollingIntervalSeconds: work.pollingIntervalSeconds ?? 2 }
      : work;
    const id = await boss.work(job.queue, options, async (batch) => {
      const handled = job.handle(
        batch.map((j) => j.data),
        AbortSignal.any(batch.map((j) => j.signal)),
      );
      handlers.add(handled);
      try {
        await handled;
      } finally {
        handlers.delete(handled);
      }
    });
    recordLocalWorker(boss, job.queue, id);
  }
  for (const job of jobs) {
    if (job.cron && !isScheduled(stored.get(`${job.queue}\n`), job.cron))
      await boss.schedule(job.queue, job.cron);
  }
}

/**
 * After `boss.stop()`: resolves once the handlers it left running (their jobs handed back, their
 * signals aborted) have returned, or after `timeoutMs`, so that the database closes under none
 * that is putting its work back.
 */
export async function handlersSettled(boss: PgBoss, timeoutMs: number): Promise<void> {
  const handlers = [...(running.get(boss) ?? [])];
  if (handlers.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(handlers),
    new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]);
  clearTimeout(timer);
}

/** Whether `schedule` is what `boss.schedule(queue, cron)` (UTC, no data, no options) writes. */
function isScheduled(schedule: Schedule | undefined, cron: string): boolean {
  return (
    schedule !== undefined &&
    schedule.cron === cron &&
    schedule.timezone === 'UTC' &&
    schedule.data == null &&
    Object.keys(schedule.options ?? {}).length === 0
  );
}

/** createJobBoss and startJobs in one (jobs tests that need no composition root). */
export async function startJobRuntime(
  database: Database,
  role: JobRole,
  jobs: AnyJobDefinition[],
  log: FastifyBaseLogger,
): Promise<PgBoss> {
  const boss = createJobBoss(database, role, log);
  await startJobs(boss, role, jobs);
  return boss;
}
