import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWall, wallAt, wallNow, wallToIso } from '@/lib/zoned-time';
import { createPost } from '../../testing/post-fixtures';
import {
  agendaDays,
  createPostSearch,
  groupByDay,
  moveToDay,
  moveToSlot,
  parseAnchor,
  rangeLabel,
  stepUnit,
  visibleDays,
  visibleRange,
} from './calendar-dates';

const keys = (days: dayjs.Dayjs[]) => days.map((d) => d.format('YYYY-MM-DD'));

describe('calendar dates', () => {
  describe('agenda', () => {
    // Sunday March 3 to Saturday March 9, 2030; Auckland is UTC+13 all that week.
    const week = visibleDays('agenda', parseWall('2030-03-05'));
    const firstMinute = createPost({
      title: 'first minute',
      scheduledAt: '2030-03-02T11:00:00.000Z',
    });
    const lastMinute = createPost({
      title: 'last minute',
      scheduledAt: '2030-03-09T10:59:00.000Z',
    });
    const nextWeek = createPost({ title: 'next week', scheduledAt: '2030-03-09T11:00:00.000Z' });
    const midweekLate = createPost({
      title: 'midweek late',
      scheduledAt: '2030-03-06T09:00:00.000Z',
    });
    const midweekEarly = createPost({
      title: 'midweek early',
      scheduledAt: '2030-03-05T20:00:00.000Z',
    });
    const posts = [lastMinute, midweekLate, nextWeek, firstMinute, midweekEarly];
    const titles = (days: ReturnType<typeof agendaDays>) =>
      Object.fromEntries(
        days
          .filter((d) => d.posts.length > 0)
          .map((d) => [d.key, d.posts.map((p) => p.post.title)]),
      );

    it('lists the seven days of the week in order, each with its posts in time order', () => {
      const days = agendaDays(week, groupByDay(posts, 'Pacific/Auckland'));
      expect(days.map((d) => d.key)).toEqual(keys(week));
      expect(days[0]?.day.format('dddd')).toBe('Sunday');
      expect(titles(days)).toEqual({
        '2030-03-03': ['first minute'],
        '2030-03-06': ['midweek early', 'midweek late'],
        '2030-03-09': ['last minute'],
      });
    });

    it("puts a post on the day of the viewer's zone, not of UTC or the browser", () => {
      // The same instants seen from UTC: the first falls on Saturday before the week, the
      // Saturday-midnight one inside it, and the midweek pair on two days.
      const days = agendaDays(week, groupByDay(posts, 'UTC'));
      expect(titles(days)).toEqual({
        '2030-03-05': ['midweek early'],
        '2030-03-06': ['midweek late'],
        '2030-03-09': ['last minute', 'next week'],
      });
      expect(days.find((d) => d.key === '2030-03-09')?.posts[0]?.at.format('h:mm A')).toBe(
        '10:59 AM',
      );
    });

    it('runs the same week as the week view and steps week by week', () => {
      expect(keys(visibleDays('agenda', parseWall('2030-03-09')))).toEqual(keys(week));
      expect(rangeLabel('agenda', parseWall('2030-03-05'))).toBe('Mar 3 – 9, 2030');
      expect(stepUnit('agenda')).toBe('week');
      expect(stepUnit('month')).toBe('month');
    });
  });

  it('runs weeks Sunday to Saturday, and months as six such weeks', () => {
    const week = visibleDays('week', dayjs('2030-03-09'));
    expect(keys(week)).toEqual([
      '2030-03-03',
      '2030-03-04',
      '2030-03-05',
      '2030-03-06',
      '2030-03-07',
      '2030-03-08',
      '2030-03-09',
    ]);
    const month = visibleDays('month', dayjs('2030-03-20'));
    expect(month).toHaveLength(42);
    expect(keys(month).at(0)).toBe('2030-02-24');
    expect(keys(month).at(-1)).toBe('2030-04-06');
  });

  it('labels the range', () => {
    expect(rangeLabel('week', dayjs('2030-03-05'))).toBe('Mar 3 – 9, 2030');
    expect(rangeLabel('week', dayjs('2030-03-01'))).toBe('Feb 24 – Mar 2, 2030');
    expect(rangeLabel('week', dayjs('2030-12-31'))).toBe('Dec 29, 2030 – Jan 4, 2031');
    expect(rangeLabel('month', dayjs('2030-03-05'))).toBe('March 2030');
  });

  it('reads ?date= only when it is a real day', () => {
    const today = dayjs('2030-06-15T13:00');
    expect(parseAnchor('2030-03-05', today).format('YYYY-MM-DD')).toBe('2030-03-05');
    expect(parseAnchor('2030-02-31', today).format('YYYY-MM-DD')).toBe('2030-06-15');
    expect(parseAnchor('soon', today).format('YYYY-MM-DD')).toBe('2030-06-15');
    expect(parseAnchor(null, today).format('YYYY-MM-DD HH:mm')).toBe('2030-06-15 00:00');
  });

  it('groups posts by their date rule, in time order, dropping undated ones', () => {
    const late = createPost({ scheduledAt: '2030-03-05T18:00:00.000Z' });
    const early = createPost({
      status: 'published',
      scheduledAt: null,
      createdAt: '2030-03-05T07:00:00.000Z',
    });
    const undated = createPost({ scheduledAt: 'x', createdAt: 'y' });
    const moved = createPost({ scheduledAt: '2030-03-05T12:00:00.000Z' });
    // A draft without a time is in the Unscheduled tray, not on the day it was written.
    const idea = createPost({ scheduledAt: null, createdAt: '2030-03-05T08:00:00.000Z' });
    // Until a drop on a day gives it one.
    const dropped = createPost({ scheduledAt: null, createdAt: '2030-03-01T08:00:00.000Z' });

    const days = groupByDay([late, early, undated, moved, idea, dropped], 'UTC', {
      [moved.id]: '2030-03-06T12:00:00.000Z',
      [dropped.id]: '2030-03-06T09:00:00.000Z',
    });
    expect(days.get('2030-03-05')?.map((d) => d.post.id)).toEqual([early.id, late.id]);
    expect(days.get('2030-03-06')?.map((d) => d.post.id)).toEqual([dropped.id, moved.id]);
    expect([...days.values()].flat()).toHaveLength(4);
  });

  it('keeps the time of day on a day drop, and the minutes on a slot drop', () => {
    const at = dayjs('2030-03-05T09:30:15');
    expect(moveToDay(at, dayjs('2030-03-07')).format('YYYY-MM-DD HH:mm:ss')).toBe(
      '2030-03-07 09:30:15',
    );
    expect(moveToSlot(at, dayjs('2030-03-09'), 15).format('YYYY-MM-DD HH:mm')).toBe(
      '2030-03-09 15:30',
    );
  });

  it('builds the composer link with the day and, from a slot, the time', () => {
    expect(createPostSearch(dayjs('2030-03-05'))).toBe('?date=2030-03-05');
    expect(createPostSearch(dayjs('2030-03-05'), '08:00')).toBe('?date=2030-03-05&time=08%3A00');
  });
});

describe("calendar days in the user's zone, not the machine's", () => {
  const machineZone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'America/New_York';
  });
  afterAll(() => {
    process.env.TZ = machineZone;
  });
  const zone = 'Pacific/Auckland';

  it("puts a post on the user's day at the user's time", () => {
    // 11:30 UTC on March 5th is 00:30 on March 6th in Auckland (UTC+13), and 06:30 on the 5th
    // in New York, the machine's zone.
    const post = createPost({ scheduledAt: '2030-03-05T11:30:00.000Z' });
    const days = groupByDay([post], zone);
    const [item] = days.get('2030-03-06') ?? [];
    expect(item?.at.format('h:mm A')).toBe('12:30 AM');
    expect(days.has('2030-03-05')).toBe(false);
  });

  it("asks the server for the user's days, midnight to midnight in their zone", () => {
    const days = visibleDays('week', parseWall('2030-03-05'));
    expect(visibleRange(days, zone)).toEqual({
      from: '2030-03-02T11:00:00.000Z',
      to: '2030-03-09T11:00:00.000Z',
    });
  });

  it("takes today from the user's zone", () => {
    const now = Date.parse('2030-03-05T12:00:00.000Z'); // March 6th, 01:00 in Auckland
    expect(parseAnchor(null, wallNow(zone, now)).format('YYYY-MM-DD')).toBe('2030-03-06');
    expect(parseAnchor(null, wallNow('America/New_York', now)).format('YYYY-MM-DD')).toBe(
      '2030-03-05',
    );
  });

  it('sends a dropped post at the same wall-clock time of the new day, in the zone', () => {
    const at = wallAt('2030-03-05T20:00:00.000Z', zone); // March 6th, 09:00 in Auckland
    const to = moveToDay(at, parseWall('2030-04-10')); // Auckland is back on UTC+12 by then
    expect(to.format('YYYY-MM-DD HH:mm')).toBe('2030-04-10 09:00');
    expect(wallToIso(to, zone)).toBe('2030-04-09T21:00:00.000Z');
  });
});
