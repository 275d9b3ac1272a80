import { describe, expect, it } from 'vitest';
import { afterSkips } from './feed-check.js';

describe('afterSkips', () => {
  const at = new Date('2026-12-02T10:20:00Z'); // a Wednesday

  it('keeps a time outside the skipped hours and days', () => {
    expect(afterSkips(at, { skipHours: [3], skipDays: [0] })).toEqual(at);
  });

  it('moves past skipped hours (GMT) to the top of the next open hour', () => {
    expect(afterSkips(at, { skipHours: [10, 11], skipDays: [] })).toEqual(
      new Date('2026-12-02T12:00:00Z'),
    );
  });

  it('moves past a skipped day to its end', () => {
    expect(afterSkips(at, { skipHours: [], skipDays: [3] })).toEqual(
      new Date('2026-12-03T00:00:00Z'),
    );
  });
});
