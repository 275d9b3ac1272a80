import { describe, expect, it } from 'vitest';
import {
  FIRST_READING_AFTER_MS,
  READING_WINDOW_MS,
  SNAPSHOT_CHECKPOINTS,
  snapshotDueAt,
} from './analytics-queue.js';

const published = new Date('2026-11-27T09:00:00Z');
const early = SNAPSHOT_CHECKPOINTS.find((c) => c.name === '10m')!;
const hour = SNAPSHOT_CHECKPOINTS.find((c) => c.name === '1h')!;
const month = SNAPSHOT_CHECKPOINTS.find((c) => c.name === '30d')!;
const ids = Array.from(
  { length: 200 },
  (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
);

describe('SNAPSHOT_CHECKPOINTS', () => {
  it('reads a post first 10 minutes after publishing, then at 1 h, 6 h, 24 h, 3, 7 and 30 days and weekly to 90 days', () => {
    expect(SNAPSHOT_CHECKPOINTS.map((c) => c.name)).toEqual([
      '10m',
      '1h',
      '6h',
      '24h',
      '3d',
      '7d',
      '30d',
      '37d',
      '44d',
      '51d',
      '58d',
      '65d',
      '72d',
      '79d',
      '86d',
      '90d',
    ]);
    expect(FIRST_READING_AFTER_MS).toBe(10 * 60_000);
    expect(READING_WINDOW_MS).toBe(90 * 86_400_000);
  });

  it('keeps the readings in order once spread: each due after the one before, for any target', () => {
    for (const id of ids) {
      const due = SNAPSHOT_CHECKPOINTS.map((c) => snapshotDueAt(id, c, published).getTime());
      for (let i = 1; i < due.length; i += 1) expect(due[i]).toBeGreaterThan(due[i - 1]!);
    }
  });
});

describe('snapshotDueAt', () => {
  it('reads the early checkpoint within a minute after its 10 minutes', () => {
    for (const id of ids) {
      const delay = snapshotDueAt(id, early, published).getTime() - published.getTime();
      expect(delay).toBeGreaterThanOrEqual(10 * 60_000);
      expect(delay).toBeLessThan(11 * 60_000);
    }
  });

  it('reads each target at or after its checkpoint, within a tenth of the delay', () => {
    for (const id of ids) {
      const delay = snapshotDueAt(id, hour, published).getTime() - published.getTime();
      expect(delay).toBeGreaterThanOrEqual(hour.afterMs);
      expect(delay).toBeLessThan(hour.afterMs * 1.1);
    }
  });

  it('moves a late checkpoint by at most two hours', () => {
    for (const id of ids) {
      const late =
        snapshotDueAt(id, month, published).getTime() - published.getTime() - month.afterMs;
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(2 * 3_600_000);
    }
  });

  it('spreads posts published together over the window, the same time for the same target', () => {
    const minutes = new Set(
      ids.map((id) =>
        Math.floor(
          (snapshotDueAt(id, hour, published).getTime() - published.getTime() - hour.afterMs) /
            60_000,
        ),
      ),
    );
    // 200 targets over a 6-minute window land in every minute of it.
    expect(minutes).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(snapshotDueAt(ids[7]!, hour, published)).toEqual(
      snapshotDueAt(ids[7]!, hour, published),
    );
  });
});
