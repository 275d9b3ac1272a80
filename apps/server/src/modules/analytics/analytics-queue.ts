import type { PgBoss } from 'pg-boss';
import { bringSnapshotsForward } from './analytics.repository.js';

/** One snapshot of one published target at one checkpoint of its life. Versioned with its payload. */
export const SNAPSHOT_QUEUE = 'analytics.snapshot.v1';

export interface SnapshotJob {
  targetId: string;
  checkpoint: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * When a published post's metrics are read (docs/analytics.md#schedule): 10 min (so the first
 * figures come while the author still looks), 1 h, 6 h, 24 h, 3 d, 7 d, 30 d, then weekly up
 * to 90 d. The first is the earliest reading the screens announce.
 */
export const SNAPSHOT_CHECKPOINTS: ReadonlyArray<{ name: string; afterMs: number }> = [
  { name: '10m', afterMs: 10 * MINUTE },
  { name: '1h', afterMs: HOUR },
  { name: '6h', afterMs: 6 * HOUR },
  { name: '24h', afterMs: DAY },
  { name: '3d', afterMs: 3 * DAY },
  { name: '7d', afterMs: 7 * DAY },
  { name: '30d', afterMs: 30 * DAY },
  ...[37, 44, 51, 58, 65, 72, 79, 86, 90].map((d) => ({ name: `${d}d`, afterMs: d * DAY })),
];

/** When the first reading of a published target is due, before its spread (the earliest checkpoint). */
export const FIRST_READING_AFTER_MS = SNAPSHOT_CHECKPOINTS[0]!.afterMs;

/** The last checkpoint: a target published longer ago than this is no longer read on schedule. */
export const READING_WINDOW_MS = SNAPSHOT_CHECKPOINTS.at(-1)!.afterMs;

/** The most a reading is moved from its checkpoint (10 % of the checkpoint's delay, at most 2 h). */
const MAX_SPREAD_MS = 2 * HOUR;

/**
 * When the reading of `targetId` at `checkpoint` is due: the checkpoint, moved later by up to a
 * tenth of its delay (at most 2 h), by an amount fixed by the target and checkpoint. Posts
 * published together (a CSV import, a thread of accounts, a busy morning) are then read over
 * minutes to hours instead of at one instant, which keeps a burst of reads under the networks'
 * per-account and per-app rate limits; the same target always gets the same time.
 */
export function snapshotDueAt(
  targetId: string,
  checkpoint: { name: string; afterMs: number },
  publishedAt: Date,
) {
  const spread = Math.min(checkpoint.afterMs / 10, MAX_SPREAD_MS);
  // FNV-1a over the key: stable, spread evenly enough for this purpose.
  let hash = 0x811c9dc5;
  for (const ch of `${targetId}:${checkpoint.name}`) {
    hash ^= ch.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return new Date(
    publishedAt.getTime() + checkpoint.afterMs + Math.floor((hash / 2 ** 32) * spread),
  );
}

/**
 * Where analytics jobs go: the process's pg-boss (none in tests without a worker). Snapshot jobs
 * are keyed by target and checkpoint, so a second "published" for the same target adds nothing.
 */
export class AnalyticsQueue {
  constructor(private readonly boss: PgBoss | null) {}

  /**
   * Every checkpoint's job in one statement (a `send` per checkpoint was a round trip each on
   * every publication). `insert` writes the jobs through the same statement as `send`, with the
   * same keys and due times.
   */
  async scheduleSnapshots(targetId: string, publishedAt: Date): Promise<void> {
    if (!this.boss) return;
    await this.boss.insert(
      SNAPSHOT_QUEUE,
      SNAPSHOT_CHECKPOINTS.map((c) => ({
        data: { targetId, checkpoint: c.name } satisfies SnapshotJob,
        singletonKey: `${targetId}:${c.name}`,
        startAfter: snapshotDueAt(targetId, c, publishedAt),
      })),
    );
  }

  /**
   * The network `platformName`'s time went `ms` further ahead of Herald's (its emulator's clock
   * was moved on: docs/analytics.md#sandbox). Readings are scheduled by a post's age, and its
   * posts are that much older there now: every reading still waiting for one of them comes `ms`
   * sooner. One that is due runs through the snapshot job like any other, at the workers' next
   * poll; later ones keep their order and spread. Answers how many readings moved.
   */
  async networkTimeMoved(platformName: string, ms: number): Promise<number> {
    if (!this.boss || ms <= 0) return 0;
    return bringSnapshotsForward(this.boss, SNAPSHOT_QUEUE, platformName, ms);
  }

  /** The same snapshot again after a rate limit's back-off; false when nothing was queued. */
  async retryAt(job: SnapshotJob, at: Date): Promise<boolean> {
    if (!this.boss) return false;
    await this.boss.send(SNAPSHOT_QUEUE, job, { startAfter: at });
    return true;
  }
}
