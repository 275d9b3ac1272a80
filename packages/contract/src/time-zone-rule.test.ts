import { describe, expect, it } from 'vitest';
import {
  applicableTimeZone,
  describeTimeZone,
  formatInstantIn,
  timeZoneParam,
  TIME_ZONE_PARAM_MESSAGE,
} from './time-zone-rule.js';
import { addDaysTo, dayIn, dayStartIn } from './wall-time.js';

describe('applicableTimeZone', () => {
  it("takes the organization's zone when it has one, whatever the member's", () => {
    expect(applicableTimeZone('Europe/Paris', 'America/New_York')).toEqual({
      zone: 'Europe/Paris',
      source: 'organization',
    });
  });

  it("takes the member's zone when the organization has none", () => {
    expect(applicableTimeZone(null, 'America/New_York')).toEqual({
      zone: 'America/New_York',
      source: 'member',
    });
    expect(applicableTimeZone('', 'Asia/Tokyo')).toEqual({ zone: 'Asia/Tokyo', source: 'member' });
  });

  it('falls back to UTC when neither has one', () => {
    expect(applicableTimeZone(null, null)).toEqual({ zone: 'UTC', source: 'default' });
    expect(applicableTimeZone(undefined, '')).toEqual({ zone: 'UTC', source: 'default' });
  });

  it('passes over a zone the runtime does not know instead of trusting it', () => {
    expect(applicableTimeZone('Mars/Olympus_Mons', 'Europe/Berlin')).toEqual({
      zone: 'Europe/Berlin',
      source: 'member',
    });
    const onlyUtc = (zone: string) => zone === 'UTC';
    expect(applicableTimeZone('Europe/Paris', 'UTC', onlyUtc)).toEqual({
      zone: 'UTC',
      source: 'member',
    });
  });
});

describe('describeTimeZone', () => {
  it('names the zone and why it applies', () => {
    expect(describeTimeZone(applicableTimeZone('Europe/Paris', 'America/New_York'))).toBe(
      "Europe/Paris (the organization's time zone)",
    );
    expect(describeTimeZone(applicableTimeZone(null, 'America/New_York'))).toBe(
      'America/New_York (your time zone; the organization has none set)',
    );
    expect(describeTimeZone(applicableTimeZone(null, null))).toBe(
      'UTC (neither the organization nor you have set a time zone)',
    );
  });
});

describe('timeZoneParam', () => {
  it('takes an IANA name, trimmed, and leaves out nothing', () => {
    expect(timeZoneParam().parse(' Europe/Paris ')).toBe('Europe/Paris');
    expect(timeZoneParam().parse(undefined)).toBeUndefined();
  });

  it('refuses anything else with the sentence', () => {
    const result = timeZoneParam().safeParse('Paris');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(TIME_ZONE_PARAM_MESSAGE);
  });
});

describe('formatInstantIn', () => {
  it('writes the wall time of the zone and names it', () => {
    const at = Date.parse('2030-01-31T08:05:00Z');
    expect(formatInstantIn(at, 'Europe/Paris')).toBe('Jan 31, 2030, 9:05 AM (Europe/Paris)');
    expect(formatInstantIn(at, 'America/New_York')).toBe(
      'Jan 31, 2030, 3:05 AM (America/New_York)',
    );
    expect(formatInstantIn(Date.parse('2030-07-01T12:00:00Z'), 'UTC')).toBe(
      'Jul 1, 2030, 12:00 PM (UTC)',
    );
    expect(formatInstantIn(Date.parse('2030-07-01T00:30:00Z'), 'UTC')).toBe(
      'Jul 1, 2030, 12:30 AM (UTC)',
    );
  });
});

describe('days in a zone', () => {
  it('puts 23:30 UTC on the next day in Europe/Paris', () => {
    const at = Date.parse('2026-03-02T23:30:00Z');
    expect(dayIn(at, 'UTC')).toBe('2026-03-02');
    expect(dayIn(at, 'Europe/Paris')).toBe('2026-03-03');
  });

  it("finds a day's first instant, across a daylight-saving change", () => {
    expect(new Date(dayStartIn('2026-03-03', 'Europe/Paris')).toISOString()).toBe(
      '2026-03-02T23:00:00.000Z',
    );
    // Summer time: Paris is two hours ahead.
    expect(new Date(dayStartIn('2026-07-01', 'Europe/Paris')).toISOString()).toBe(
      '2026-06-30T22:00:00.000Z',
    );
    // The day of the change is 23 hours long.
    expect(
      dayStartIn('2026-03-30', 'Europe/Paris') - dayStartIn('2026-03-29', 'Europe/Paris'),
    ).toBe(23 * 3_600_000);
    // Santiago skips midnight in September: the day starts at 01:00 on the new offset.
    const skipped = dayStartIn('2026-09-06', 'America/Santiago');
    expect(dayIn(skipped, 'America/Santiago')).toBe('2026-09-06');
    expect(dayIn(skipped - 1, 'America/Santiago')).toBe('2026-09-05');
  });

  it('counts calendar days across months and years', () => {
    expect(addDaysTo('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDaysTo('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDaysTo('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDaysTo('2026-03-10', -30)).toBe('2026-02-08');
  });
});
