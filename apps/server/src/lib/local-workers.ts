import type { PgBoss } from 'pg-boss';

/** The job handlers this process runs, by queue: a job sent here can wake them at once. */
const localWorkers = new WeakMap<PgBoss, Map<string, string[]>>();

/** Called by the job runtime for each handler it starts. */
export function recordLocalWorker(boss: PgBoss, queue: string, workerId: string) {
  const workers = localWorkers.get(boss) ?? new Map<string, string[]>();
  localWorkers.set(boss, workers);
  workers.set(queue, [...(workers.get(queue) ?? []), workerId]);
}

/**
 * Wakes this process's handlers of `queue` (if it runs any), so a job just sent is fetched now
 * rather than at their next poll; handlers in other processes find it at their poll as usual.
 */
export function wakeLocalWorkers(boss: PgBoss, queue: string) {
  for (const id of localWorkers.get(boss)?.get(queue) ?? []) boss.notifyWorker(id);
}
