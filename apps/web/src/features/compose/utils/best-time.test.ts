import { describe, expect, it } from 'vitest';
import { bestSlot, nextOccurrence } from './best-time';

const cell = (
  weekday: number,
  hour: number,
  posts: number,
  engagementRate: number | null,
  interactionsPerPost: number | null = null,
) => ({ weekday, hour, posts, engagementRate, interactionsPerPost });
const map = (cells: ReturnType<typeof cell>[]) => ({
  timezone: 'UTC',
  posts: cells.reduce((n, c) => n + c.posts, 0),
  engagementFormula: '',
  cells,
});

describe('bestSlot', () => {
  it('takes the highest engagement among slots with at least two posts', () => {
    expect(bestSlot(map([cell(0, 9, 3, 0.02), cell(1, 18, 2, 0.05), cell(2, 7, 1, 0.9)]))).toEqual(
      cell(1, 18, 2, 0.05),
    );
  });

  it('falls back to interactions per post, and says nothing without enough posts', () => {
    expect(bestSlot(map([cell(0, 9, 2, null, 4), cell(4, 12, 2, null, 9)]))?.weekday).toBe(4);
    expect(bestSlot(map([cell(0, 9, 1, 0.5)]))).toBeNull();
    expect(bestSlot(map([]))).toBeNull();
  });
});

describe('nextOccurrence', () => {
  // 2026-12-02 is a Wednesday (weekday 2).
  it('is later this week, later today, or next week when the hour has come', () => {
    expect(nextOccurrence({ weekday: 4, hour: 18 }, '2026-12-02T10:30')).toBe('2026-12-04T18:00');
    expect(nextOccurrence({ weekday: 2, hour: 18 }, '2026-12-02T10:30')).toBe('2026-12-02T18:00');
    expect(nextOccurrence({ weekday: 2, hour: 10 }, '2026-12-02T10:30')).toBe('2026-12-09T10:00');
    expect(nextOccurrence({ weekday: 0, hour: 8 }, '2026-12-02T10:30')).toBe('2026-12-07T08:00');
  });
});
