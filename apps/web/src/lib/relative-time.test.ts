import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const before = (ms: number) => new Date(NOW - ms).toISOString();

describe('relativeTime (docs/product.md#constants)', () => {
  it.each([
    [0, 'Just now'],
    [4_999, 'Just now'],
    [5_000, '5s ago'],
    [59_000, '59s ago'],
    [60_000, '1m ago'],
    [59 * 60_000, '59m ago'],
    [60 * 60_000, '1h ago'],
    [23 * 3_600_000 + 59 * 60_000, '23h ago'],
    [24 * 3_600_000, '1d ago'],
    [45 * 24 * 3_600_000, '45d ago'],
  ])('%i ms ago reads %s', (ms, expected) => {
    expect(relativeTime(before(ms), NOW)).toBe(expected);
  });

  it("reads 'Just now' for a time slightly ahead of this clock", () => {
    expect(relativeTime(before(-3_000), NOW)).toBe('Just now');
  });

  it("reads 'Invalid date' for something that is not a date", () => {
    expect(relativeTime('yesterday-ish', NOW)).toBe('Invalid date');
  });
});
