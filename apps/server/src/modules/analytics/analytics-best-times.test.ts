import { describe, expect, it } from 'vitest';
import { slotFinder, slotOf } from './analytics-best-times.service.js';

describe('slotFinder', () => {
  // Zones with daylight saving both ways, half- and quarter-hour offsets, a half-hour change
  // (Lord Howe) and a zone across the date line.
  const zones = [
    'UTC',
    'Europe/Paris',
    'America/New_York',
    'America/St_Johns',
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'Pacific/Apia',
  ];

  it('places every instant where a per-instant lookup does, across offset changes', () => {
    const start = Date.parse('2025-01-01T00:00:00Z');
    const end = Date.parse('2026-12-31T00:00:00Z');
    for (const zone of zones) {
      const slot = slotFinder(zone);
      let mismatches = 0;
      let checked = 0;
      // Every 97 minutes and 13 seconds over two years: every hour of the day many times, near
      // each change, in some ten thousand lookups per zone.
      for (let ms = start; ms < end; ms += 5_833_000) {
        checked += 1;
        const expected = slotOf(new Date(ms).toISOString(), zone);
        const got = slot(ms);
        if (got.weekday !== expected.weekday || got.hour !== expected.hour) mismatches += 1;
      }
      expect({ zone, mismatches, checked: checked > 10_000 }).toEqual({
        zone,
        mismatches: 0,
        checked: true,
      });
    }
  });

  it('is right in the hour around a change', () => {
    const slot = slotFinder('Europe/Paris');
    // 2026-03-29 01:00 UTC: Paris goes from 02:00 (+1) to 03:00 (+2).
    expect(slot(Date.parse('2026-03-29T00:59:59Z'))).toEqual({ weekday: 6, hour: 1 });
    expect(slot(Date.parse('2026-03-29T01:00:00Z'))).toEqual({ weekday: 6, hour: 3 });
    // 2026-10-25 01:00 UTC: back from 03:00 (+2) to 02:00 (+1).
    expect(slot(Date.parse('2026-10-25T00:59:59Z'))).toEqual({ weekday: 6, hour: 2 });
    expect(slot(Date.parse('2026-10-25T01:00:00Z'))).toEqual({ weekday: 6, hour: 2 });
    expect(slot(Date.parse('2026-10-25T02:00:00Z'))).toEqual({ weekday: 6, hour: 3 });
  });
});
