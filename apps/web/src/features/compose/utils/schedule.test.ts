import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatLocal,
  localToIso,
  nowAsLocal,
  SCHEDULE_IN_PAST,
  SCHEDULE_MISSING,
  scheduleFromSearch,
  scheduleProblem,
} from './schedule';

const search = (query: string) => new URLSearchParams(query);

describe('scheduleFromSearch', () => {
  it('takes the linked day at 09:00, or at the linked time', () => {
    expect(scheduleFromSearch(search('date=2030-03-04'))).toBe('2030-03-04T09:00');
    expect(scheduleFromSearch(search('date=2030-03-04&time=14%3A30'))).toBe('2030-03-04T14:30');
  });

  it('ignores days that do not exist and malformed times', () => {
    expect(scheduleFromSearch(search('date=2030-02-30'))).toBe('');
    expect(scheduleFromSearch(search('date=tomorrow'))).toBe('');
    expect(scheduleFromSearch(search('date=2030-03-04&time=25:00'))).toBe('2030-03-04T09:00');
  });
});

describe("localToIso and scheduleProblem in the user's zone, not the machine's", () => {
  const machineZone = process.env.TZ;
  beforeAll(() => {
    // The browser says New York; the user saved Auckland.
    process.env.TZ = 'America/New_York';
  });
  afterAll(() => {
    process.env.TZ = machineZone;
  });

  it("runs on a machine whose zone differs from the user's", () => {
    expect(new Date(2030, 0, 1).getTimezoneOffset()).toBe(300);
  });

  it("reads the picker's value as a wall-clock time in the user's zone", () => {
    // Auckland is UTC+13 in March (daylight time) and UTC+12 in July.
    expect(localToIso('2030-03-04T14:30', 'Pacific/Auckland')).toBe('2030-03-04T01:30:00.000Z');
    expect(localToIso('2030-07-04T14:30', 'Pacific/Auckland')).toBe('2030-07-04T02:30:00.000Z');
    expect(localToIso('2030-03-04T14:30', 'UTC')).toBe('2030-03-04T14:30:00.000Z');
    expect(localToIso('', 'Pacific/Auckland')).toBeNull();
    expect(localToIso('2030-02-30T10:00', 'Pacific/Auckland')).toBeNull();
  });

  it("refuses a missing or past time, judged in the user's zone", () => {
    // 12:00 in Auckland on March 4th is 23:00 UTC on March 3rd.
    const now = Date.parse('2030-03-03T23:00:00.000Z');
    const zone = 'Pacific/Auckland';
    expect(scheduleProblem('', zone, now)).toBe(SCHEDULE_MISSING);
    expect(scheduleProblem('2030-03-04T11:59', zone, now)).toBe(SCHEDULE_IN_PAST);
    expect(scheduleProblem('2030-03-04T12:01', zone, now)).toBeNull();
    // The same wall time in New York is hours away yet: the machine's zone is not used.
    expect(scheduleProblem('2030-03-03T17:59', 'America/New_York', now)).toBe(SCHEDULE_IN_PAST);
    expect(scheduleProblem('2030-03-03T18:01', 'America/New_York', now)).toBeNull();
  });

  it("starts the picker at the current minute of the user's zone", () => {
    const now = Date.parse('2030-03-03T23:00:30.000Z');
    expect(nowAsLocal('Pacific/Auckland', now)).toBe('2030-03-04T12:00');
    expect(nowAsLocal('America/New_York', now)).toBe('2030-03-03T18:00');
  });

  it('writes the chosen time as it was chosen', () => {
    expect(formatLocal('2030-03-04T14:30')).toBe('Mar 4, 2030 2:30 PM');
    expect(formatLocal('nonsense')).toBe('Invalid date');
  });
});
