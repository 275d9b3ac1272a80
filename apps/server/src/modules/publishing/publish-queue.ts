import { sql, type SQL } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import type { Db } from '../../db/client.js';

/** Queue of publishing work: one job per target (post × network). Versioned with its payload. */
export const PUBLISH_QUEUE = 'publish.target.v1';

export interface PublishJob {
  targetId: string;
}

/**
 * pg-boss speaks `executeSql(text, values)`; this runs its statements on an open drizzle
 * transaction, so a job is created or moved in the same transaction as the post write.
 */
function transactionAdapter(tx: Db) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const chunks: SQL[] = [];
      let last = 0;
      for (const match of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(last, match.index)));
        // One parameter each, arrays too (a bare array would become a list: `($1, $2)`).
        chunks.push(sql`${sql.param(values[Number(match[1]) - 1])}`);
        last = match.index + match[0].length;
      }
      chunks.push(sql.raw(text.slice(last)));
      const result = (await tx.execute(sql.join(chunks, sql.raw('')))) as unknown as
        { rows: unknown[] } | unknown[];
      return { rows: Array.isArray(result) ? result : result.rows };
    },
  };
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
