import type { PgBoss } from 'pg-boss';
import type { Db } from '../../db/client.js';
import { transactionAdapter } from './publish-queue.repository.js';

/** Queue of publishing work: one job per target (post × network). Versioned with its payload. */
export const PUBLISH_QUEUE = 'publish.target.v1';

export interface PublishJob {
  targetId: string;
}

/**
 * Where the engine's jobs go: the process's pg-boss, built once by the composition root
 * (src/runtime.ts). Without one (tests that run no worker) scheduling records the target's due
 * time only, and the worker's catch-up pass enqueues what is due when it starts.
 */
export class PublishQueue {
  constructor(private readonly boss: PgBoss | null) {}

  /** Creates the target's job, or moves its pending job to `dueAt` (singleton key = target id). */
  async schedule(tx: Db, targetId: string, dueAt: Date): Promise<string | null> {
    if (!this.boss) return null;
    const result = await this.boss.upsert(
      PUBLISH_QUEUE,
      { targetId },
      { singletonKey: targetId, startAfter: dueAt, db: transactionAdapter(tx) },
    );
    return result.jobs[0] ?? null;
  }

  /** Cancels pending jobs (a post returned to draft or deleted). */
  async cancel(tx: Db, jobIds: string[]): Promise<void> {
    if (!this.boss || jobIds.length === 0) return;
    await this.boss.cancel(PUBLISH_QUEUE, jobIds, { db: transactionAdapter(tx) });
  }

  /** Runs the target again at `at` (a retry after backoff or a rate-limit window). */
  async retryAt(targetId: string, at: Date): Promise<void> {
    if (!this.boss) return;
    await this.boss.upsert(PUBLISH_QUEUE, { targetId }, { startAfter: at, singletonKey: targetId });
  }
}
