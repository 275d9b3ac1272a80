import { describe, expect, it } from 'vitest';
import { dayInZone, parseDay, sameTimeOnDay, shiftByDays } from './reschedule.js';

const at = (iso: string) => new Date(iso).getTime();
const iso = (ms: number) => new Date(ms).toISOString();
const NY = 'America/New_York';

describe('parseDay', () => {
  it('reads days the calendar has, and nothing else', () => {
    expect(parseDay('2026-03-08')).toEqual({ year: 2026, month: 3, day: 8 });
    expect(parseDay('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    for (const bad of ['2026-02-29', '2026-13-01', '2026-3-8', '2026-03-08T09:00', '']) {
      expect(parseDay(bad), bad).toBeNull();
    }
  });
});

describe('moving by days in a zone', () => {
  it('keeps the time on the clocks across a spring-forward change', () => {
    // Saturday 09:00 EST → Monday 09:00 EDT.
    expect(iso(shiftByDays(at('2026-03-07T14:00:00Z'), NY, 2))).toBe('2026-03-09T13:00:00.000Z');
    expect(iso(shiftByDays(at('2026-03-09T13:00:00Z'), NY, -2))).toBe('2026-03-07T14:00:00.000Z');
    // Across a month and a year end.
    expect(iso(shiftByDays(at('2026-12-31T23:30:00Z'), 'UTC', 1))).toBe('2027-01-01T23:30:00.000Z');
  });

  it('puts a post on another day at its own time of day, read in the zone', () => {
    const day = parseDay('2026-03-10')!;
    expect(iso(sameTimeOnDay(at('2026-03-07T14:00:00Z'), NY, day))).toBe(
      '2026-03-10T13:00:00.000Z',
    );
    // 01:30 in Tokyo on the 8th is still the 7th in UTC: the day is Tokyo's.
    expect(iso(sameTimeOnDay(at('2026-03-07T16:30:00Z'), 'Asia/Tokyo', day))).toBe(
      '2026-03-09T16:30:00.000Z',
    );
    expect(dayInZone(at('2026-03-07T16:30:00Z'), 'Asia/Tokyo')).toBe('2026-03-08');
    expect(dayInZone(at('2026-03-07T16:30:00Z'), NY)).toBe('2026-03-07');
  });

  it('reads a time skipped by the change forward, as the pickers do', () => {
    // 02:30 does not happen in New York on 2026-03-08: it is read as 03:30 EDT.
    expect(iso(sameTimeOnDay(at('2026-03-07T07:30:00Z'), NY, parseDay('2026-03-08')!))).toBe(
      '2026-03-08T07:30:00.000Z',
    );
  });
});
