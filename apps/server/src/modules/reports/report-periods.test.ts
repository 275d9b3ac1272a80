import { describe, expect, it } from 'vitest';
import {
  duePeriod,
  lastCompletePeriod,
  nextDelivery,
  periodAfter,
  sendTimeOf,
} from './report-periods.js';

const at = (iso: string) => new Date(iso);

describe('lastCompletePeriod', () => {
  it('is the Monday–Sunday before the current week', () => {
    // Wednesday 4 March 2026.
    expect(lastCompletePeriod('weekly', at('2026-03-04T12:00:00Z'), 'UTC')).toEqual({
      from: '2026-02-23',
      to: '2026-03-01',
    });
    // On a Monday, the week that ended last night.
    expect(lastCompletePeriod('weekly', at('2026-03-09T00:00:00Z'), 'UTC')).toEqual({
      from: '2026-03-02',
      to: '2026-03-08',
    });
    // Sunday: the week under way is not complete.
    expect(lastCompletePeriod('weekly', at('2026-03-08T23:59:00Z'), 'UTC')).toEqual({
      from: '2026-02-23',
      to: '2026-03-01',
    });
  });

  it('reads the week in the organization zone', () => {
    // Sunday 23:30 UTC is already Monday in Paris: the week just ended counts there.
    const now = at('2026-03-08T23:30:00Z');
    expect(lastCompletePeriod('weekly', now, 'Europe/Paris')).toEqual({
      from: '2026-03-02',
      to: '2026-03-08',
    });
    expect(lastCompletePeriod('weekly', now, 'America/New_York')).toEqual({
      from: '2026-02-23',
      to: '2026-03-01',
    });
  });

  it('is the previous calendar month, across a year and a leap February', () => {
    expect(lastCompletePeriod('monthly', at('2026-03-15T10:00:00Z'), 'UTC')).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(lastCompletePeriod('monthly', at('2028-03-01T10:00:00Z'), 'UTC')).toEqual({
      from: '2028-02-01',
      to: '2028-02-29',
    });
    expect(lastCompletePeriod('monthly', at('2027-01-01T05:00:00Z'), 'Asia/Tokyo')).toEqual({
      from: '2026-12-01',
      to: '2026-12-31',
    });
    // 31 December 20:00 UTC is 1 January in Tokyo: December is over there, not in UTC.
    expect(lastCompletePeriod('monthly', at('2026-12-31T20:00:00Z'), 'Asia/Tokyo').to).toBe(
      '2026-12-31',
    );
    expect(lastCompletePeriod('monthly', at('2026-12-31T20:00:00Z'), 'UTC').to).toBe('2026-11-30');
  });
});

describe('periodAfter and sendTimeOf', () => {
  it('steps weeks by seven days and months to their last day', () => {
    expect(periodAfter('weekly', { from: '2026-12-28', to: '2027-01-03' })).toEqual({
      from: '2027-01-04',
      to: '2027-01-10',
    });
    expect(periodAfter('monthly', { from: '2026-01-01', to: '2026-01-31' })).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
    });
  });

  it('sends the day after the period, at the hour of the zone, across a clock change', () => {
    expect(sendTimeOf({ from: '2026-03-02', to: '2026-03-08' }, 8, 'UTC').toISOString()).toBe(
      '2026-03-09T08:00:00.000Z',
    );
    // Paris is UTC+1 in winter and UTC+2 from 29 March 2026.
    expect(
      sendTimeOf({ from: '2026-03-02', to: '2026-03-08' }, 8, 'Europe/Paris').toISOString(),
    ).toBe('2026-03-09T07:00:00.000Z');
    expect(
      sendTimeOf({ from: '2026-03-23', to: '2026-03-29' }, 8, 'Europe/Paris').toISOString(),
    ).toBe('2026-03-30T06:00:00.000Z');
  });
});

describe('duePeriod', () => {
  const schedule = {
    cadence: 'weekly' as const,
    sendHour: 8,
    startsAt: at('2026-03-04T10:00:00Z'),
  };

  it('is the last week once its hour has come, never one whose time was before the schedule', () => {
    // Created Wednesday: last week's Monday 08:00 is before that, so nothing is due.
    expect(duePeriod(schedule, at('2026-03-05T09:00:00Z'), 'UTC')).toBeNull();
    // Next Monday before 08:00: not yet.
    expect(duePeriod(schedule, at('2026-03-09T07:59:00Z'), 'UTC')).toBeNull();
    expect(duePeriod(schedule, at('2026-03-09T08:00:00Z'), 'UTC')).toEqual({
      from: '2026-03-02',
      to: '2026-03-08',
    });
    // Still that week on Thursday (a worker that was down catches up).
    expect(duePeriod(schedule, at('2026-03-12T18:00:00Z'), 'UTC')).toEqual({
      from: '2026-03-02',
      to: '2026-03-08',
    });
  });

  it('tells the next email: this period until it is done, then the one after', () => {
    const now = at('2026-03-09T07:00:00Z');
    expect(nextDelivery(schedule, now, 'UTC', () => false)).toEqual({
      period: { from: '2026-03-02', to: '2026-03-08' },
      sendAt: at('2026-03-09T08:00:00Z'),
    });
    expect(nextDelivery(schedule, at('2026-03-09T09:00:00Z'), 'UTC', () => true)).toEqual({
      period: { from: '2026-03-09', to: '2026-03-15' },
      sendAt: at('2026-03-16T08:00:00Z'),
    });
    // Before its first period: the first Monday after it started.
    expect(nextDelivery(schedule, at('2026-03-05T09:00:00Z'), 'UTC', () => false).sendAt).toEqual(
      at('2026-03-09T08:00:00Z'),
    );
  });
});
