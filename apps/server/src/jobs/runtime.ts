import { fromPglite, PgBoss } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';

export interface JobDefinition<T = Record<string, never>> {
  /** Queue name, versioned when the payload changes shape. */
  queue: string;
  /** Cron expression (UTC) when the job runs on a schedule. */
  cron?: string;
  retryLimit?: number;
  /** How the worker fetches: several jobs at a time and a short poll for latency-bound queues. */
  work?: { batchSize?: number; pollingIntervalSeconds?: number };
  handle(payloads: T[]): Promise<void>;
}

export type JobRole = 'api' | 'worker' | 'all';

/**
 * Starts pg-boss on the application's own database: PGlite in the embedded shape, PostgreSQL
 * otherwise. Only worker processes run handlers and cron; API processes only send.
 */
export async function startJobRuntime(
  database: Database,
  role: JobRole,
  jobs: JobDefinition<never>[],
  log: FastifyBaseLogger,
): Promise<PgBoss> {
  const runsWork = role !== 'api';
  const common = { schedule: runsWork, supervise: runsWork };
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', ...common })
      : new PgBoss({ connectionString: database.url, max: 4, ...common });
  // pg-boss reports connection trouble here; without a listener the process would crash.
  boss.on('error', (err) => log.error({ err }, 'job runtime error'));
  await boss.start();
  for (const job of jobs) {
    await boss.createQueue(job.queue, { retryLimit: job.retryLimit ?? 2 });
    if (!runsWork) continue;
    await boss.work(job.queue, job.work ?? {}, async (batch) => {
      await job.handle(batch.map((j) => j.data as never));
    });
    if (job.cron) await boss.schedule(job.queue, job.cron);
  }
  return boss;
}
