import { describe, expect, it } from 'vitest';
import { localTime } from './mcp-tools.js';

describe('localTime', () => {
  it('gives the wall time with the zone’s offset of that day and the weekday', () => {
    const at = new Date('2026-12-02T17:30:00Z');
    expect(localTime(at, 'Europe/Paris')).toBe('2026-12-02T18:30:00+01:00 (Wednesday)');
    expect(localTime(at, 'UTC')).toBe('2026-12-02T17:30:00+00:00 (Wednesday)');
    expect(localTime(new Date('2026-07-01T02:00:00Z'), 'America/New_York')).toBe(
      '2026-06-30T22:00:00-04:00 (Tuesday)',
    );
    expect(localTime(at, 'Asia/Kolkata')).toBe('2026-12-02T23:00:00+05:30 (Wednesday)');
  });
});
