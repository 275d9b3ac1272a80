import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { createPost } from '../../testing/post-fixtures';
import {
  createPostSearch,
  groupByDay,
  moveToDay,
  moveToSlot,
  parseAnchor,
  rangeLabel,
  visibleDays,
} from './calendar-dates';

const keys = (days: dayjs.Dayjs[]) => days.map((d) => d.format('YYYY-MM-DD'));

describe('calendar dates', () => {
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
    const late = createPost({ scheduledAt: dayjs('2030-03-05T18:00').toISOString() });
    const early = createPost({
      scheduledAt: null,
      createdAt: dayjs('2030-03-05T07:00').toISOString(),
    });
    const undated = createPost({ scheduledAt: 'x', createdAt: 'y' });
    const moved = createPost({ scheduledAt: dayjs('2030-03-05T12:00').toISOString() });

    const days = groupByDay([late, early, undated, moved], {
      [moved.id]: dayjs('2030-03-06T12:00').toISOString(),
    });
    expect(days.get('2030-03-05')?.map((d) => d.post.id)).toEqual([early.id, late.id]);
    expect(days.get('2030-03-06')?.map((d) => d.post.id)).toEqual([moved.id]);
    expect([...days.values()].flat()).toHaveLength(3);
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
