import { describe, expect, it } from 'vitest';
import {
  localToIso,
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

describe('localToIso and scheduleProblem', () => {
  it("reads the picker's value in the browser's zone", () => {
    expect(localToIso('2030-03-04T14:30')).toBe(new Date(2030, 2, 4, 14, 30).toISOString());
    expect(localToIso('')).toBeNull();
  });

  it('refuses a missing or past time', () => {
    const now = new Date(2030, 2, 4, 12, 0).getTime();
    expect(scheduleProblem('', now)).toBe(SCHEDULE_MISSING);
    expect(scheduleProblem('2030-03-04T11:59', now)).toBe(SCHEDULE_IN_PAST);
    expect(scheduleProblem('2030-03-04T12:01', now)).toBeNull();
  });
});
