import { describe, expect, it } from 'vitest';
import { SNAPSHOT_CHECKPOINTS, snapshotDueAt } from './analytics-queue.js';

const published = new Date('2026-11-27T09:00:00Z');
const hour = SNAPSHOT_CHECKPOINTS.find((c) => c.name === '1h')!;
const month = SNAPSHOT_CHECKPOINTS.find((c) => c.name === '30d')!;
const ids = Array.from(
  { length: 200 },
  (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
);

describe('snapshotDueAt', () => {
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
