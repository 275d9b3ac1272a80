import { describe, expect, it } from 'vitest';
import { rateLimitBackoffMs } from './retry-policy.js';

describe('backing off a rate limit that names no wait', () => {
  it('doubles from a minute up to an hour, between half and all of each step', () => {
    const minutes = (attempt: number, random: number) =>
      rateLimitBackoffMs(attempt, () => random) / 60_000;
    expect([1, 2, 3, 4, 7, 8, 12].map((n) => minutes(n, 1))).toEqual([1, 2, 4, 8, 60, 60, 60]);
    expect([1, 2, 3, 4, 7].map((n) => minutes(n, 0))).toEqual([0.5, 1, 2, 4, 30]);
    expect(minutes(3, 0.5)).toBe(3);
  });
});
