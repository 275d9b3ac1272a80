import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadTimeZones,
  ruleTimeZone,
  timeZoneOptions,
  toZonedLocal,
  zonedLocalToInstant,
} from './time-zone';
import { formatInZone } from './zoned-time';

describe('which zone times are shown in', () => {
  it("takes the organization's zone, then the member's, then UTC: the browser's is not asked", () => {
    expect(ruleTimeZone('Europe/Paris', 'Pacific/Auckland')).toEqual({
      zone: 'Europe/Paris',
      source: 'organization',
    });
    expect(ruleTimeZone(null, 'Pacific/Auckland')).toEqual({
      zone: 'Pacific/Auckland',
      source: 'member',
    });
    expect(ruleTimeZone(undefined, undefined)).toEqual({ zone: 'UTC', source: 'default' });
  });

  it('skips a zone this browser does not know', () => {
    expect(ruleTimeZone('Mars/Olympus', 'Europe/Paris')).toEqual({
      zone: 'Europe/Paris',
      source: 'member',
    });
  });
});

describe('the list of zones', () => {
  it('offers the UTC alias and keeps a saved zone the list lacks', () => {
    const zones = loadTimeZones();
    expect(zones).toContain('UTC');
    expect(zones).toContain('Pacific/Auckland');
    expect(timeZoneOptions(['UTC', 'Europe/Paris'], 'Asia/Kolkata')).toEqual([
      'Asia/Kolkata',
      'UTC',
      'Europe/Paris',
    ]);
    expect(timeZoneOptions(null, '')).toEqual([]);
  });
});

describe("times in the user's zone on a machine in another zone", () => {
  const machineZone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Europe/Paris';
  });
  afterAll(() => {
    process.env.TZ = machineZone;
  });

  it('writes a stored instant as the clocks in the zone show it', () => {
    expect(new Date(2030, 0, 1).getTimezoneOffset()).toBe(-60); // the machine is in Paris
    const instant = '2030-03-05T23:15:00.000Z';
    expect(formatInZone(instant, 'Pacific/Auckland', 'MMM D, YYYY h:mm A')).toBe(
      'Mar 6, 2030 12:15 PM',
    );
    expect(formatInZone(instant, 'America/New_York', 'MMM D, YYYY h:mm A')).toBe(
      'Mar 5, 2030 6:15 PM',
    );
    expect(formatInZone('not a date', 'UTC', 'MMM D')).toBeNull();
  });

  it('round-trips picker values, across daylight-saving changes', () => {
    const zone = 'Pacific/Auckland';
    // Auckland leaves daylight time on April 7th, 2030 (03:00 → 02:00) and enters it on
    // September 29th (02:00 → 03:00).
    for (const local of ['2030-04-06T12:00', '2030-04-07T12:00', '2030-09-29T04:00']) {
      expect(toZonedLocal(zonedLocalToInstant(local, zone)!, zone)).toBe(local);
    }
    // A time skipped in spring is read with the offset before the change.
    expect(toZonedLocal(zonedLocalToInstant('2030-09-29T02:30', zone)!, zone)).toBe(
      '2030-09-29T03:30',
    );
    // A time that happens twice in autumn is the first of the two (still daylight time).
    expect(new Date(zonedLocalToInstant('2030-04-07T02:30', zone)!).toISOString()).toBe(
      '2030-04-06T13:30:00.000Z',
    );
  });
});
