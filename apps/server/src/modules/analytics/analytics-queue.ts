import type { PgBoss } from 'pg-boss';

/** One snapshot of one published target at one checkpoint of its life. Versioned with its payload. */
export const SNAPSHOT_QUEUE = 'analytics.snapshot.v1';

export interface SnapshotJob {
  targetId: string;
  checkpoint: string;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * When a published post's metrics are read (docs/analytics.md#schedule): 1 h, 6 h, 24 h, 3 d,
 * 7 d, 30 d, then weekly up to 90 d.
 */
export const SNAPSHOT_CHECKPOINTS: ReadonlyArray<{ name: string; afterMs: number }> = [
  { name: '1h', afterMs: HOUR },
  { name: '6h', afterMs: 6 * HOUR },
  { name: '24h', afterMs: DAY },
  { name: '3d', afterMs: 3 * DAY },
  { name: '7d', afterMs: 7 * DAY },
  { name: '30d', afterMs: 30 * DAY },
  ...[37, 44, 51, 58, 65, 72, 79, 86, 90].map((d) => ({ name: `${d}d`, afterMs: d * DAY })),
];

/**
 * Where analytics jobs go: the process's pg-boss (none in tests without a worker). Snapshot jobs
 * are keyed by target and checkpoint, so a second "published" for the same target adds nothing.
 */
export class AnalyticsQueue {
  constructor(private readonly boss: PgBoss | null) {}

  async scheduleSnapshots(targetId: string, publishedAt: Date): Promise<void> {
    if (!this.boss) return;
    for (const c of SNAPSHOT_CHECKPOINTS) {
      await this.boss.send(SNAPSHOT_QUEUE, { targetId, checkpoint: c.name } satisfies SnapshotJob, {
        singletonKey: `${targetId}:${c.name}`,
        startAfter: new Date(publishedAt.getTime() + c.afterMs),
      });
    }
  }

  /** The same snapshot again after a rate limit's back-off. */
  async retryAt(job: SnapshotJob, at: Date): Promise<void> {
    if (!this.boss) return;
    await this.boss.send(SNAPSHOT_QUEUE, job, { startAfter: at });
  }
}
