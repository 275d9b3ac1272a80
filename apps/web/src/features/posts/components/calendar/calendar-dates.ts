import { postDate, type Post } from '@herald/contract';
import type { Dayjs } from 'dayjs';
import { parseWall, wallAt, wallToIso } from '@/lib/zoned-time';

export type CalendarView = 'week' | 'month' | 'agenda';

export const CALENDAR_VIEWS: readonly CalendarView[] = ['agenda', 'week', 'month'];

export const isCalendarView = (value: unknown): value is CalendarView =>
  CALENDAR_VIEWS.includes(value as CalendarView);

/** What Previous and Next move by: the agenda lists a week, like the week view. */
export const stepUnit = (view: CalendarView): 'week' | 'month' =>
  view === 'month' ? 'month' : 'week';

/*
 * Days and times here are "wall" values (lib/zoned-time): what the clocks show in the user's zone
 * (their saved zone, else the organization's, else the browser's), so a post at 23:30 in Auckland
 * lands on its Auckland day whatever zone the browser is in.
 */

/** Day keys in the address and in links to the composer. */
export const DAY_FORMAT = 'YYYY-MM-DD';
export const dayKey = (day: Dayjs) => day.format(DAY_FORMAT);

/** The day named by `?date=`, or `today` (the zone's) when it is absent or not a real day. */
export function parseAnchor(value: string | null, today: Dayjs): Dayjs {
  if (value && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = parseWall(value);
    if (day.isValid() && day.format(DAY_FORMAT) === value) return day.startOf('day');
  }
  return today.startOf('day');
}

/** docs/product.md#constants: weeks run Sunday to Saturday, whatever the reader's locale says. */
export function startOfWeek(day: Dayjs): Dayjs {
  return day.startOf('day').subtract(day.day(), 'day');
}

/** The days on screen: a Sunday-to-Saturday week (week and agenda), or the six weeks around a month. */
export function visibleDays(view: CalendarView, anchor: Dayjs): Dayjs[] {
  const isMonth = view === 'month';
  const first = startOfWeek(isMonth ? anchor.startOf('month') : anchor);
  const count = isMonth ? 42 : 7;
  return Array.from({ length: count }, (_, i) => first.add(i, 'day'));
}

/**
 * What the server is asked for: from the first day's start up to the midnight after the last
 * day, both in `zone` (the server's `to` is exclusive).
 */
export function visibleRange(days: readonly Dayjs[], zone: string): { from: string; to: string } {
  const first = days[0] ?? wallAt(Date.now(), zone);
  const last = days.at(-1) ?? first;
  return {
    from: wallToIso(first.startOf('day'), zone),
    to: wallToIso(last.add(1, 'day').startOf('day'), zone),
  };
}

/** "Mar 1 – 7, 2026", "Feb 26 – Mar 4, 2026", "Dec 28, 2025 – Jan 3, 2026" or "March 2026". */
export function rangeLabel(view: CalendarView, anchor: Dayjs): string {
  if (view === 'month') return anchor.format('MMMM YYYY');
  const start = startOfWeek(anchor);
  const end = start.add(6, 'day');
  if (start.year() !== end.year()) {
    return `${start.format('MMM D, YYYY')} – ${end.format('MMM D, YYYY')}`;
  }
  if (start.month() !== end.month()) {
    return `${start.format('MMM D')} – ${end.format('MMM D, YYYY')}`;
  }
  return `${start.format('MMM D')} – ${end.format('D, YYYY')}`;
}

export interface DatedPost {
  post: Post;
  at: Dayjs;
}

export interface AgendaDay {
  key: string;
  day: Dayjs;
  posts: DatedPost[];
}

/**
 * The agenda: each of `days` in order with its posts (already grouped by day of the zone, see
 * groupByDay), so a post at 23:30 in the zone stays on that day whatever the browser's zone.
 * Posts of days not on screen are left out.
 */
export function agendaDays(
  days: readonly Dayjs[],
  byDay: ReadonlyMap<string, DatedPost[]>,
): AgendaDay[] {
  return days.map((day) => {
    const key = dayKey(day);
    return { key, day, posts: byDay.get(key) ?? [] };
  });
}

/**
 * A draft nobody gave a time yet: it belongs in the Unscheduled tray, not on the day it was
 * written (docs/product.md#calendar).
 */
export const isUnscheduled = (post: Pick<Post, 'status' | 'scheduledAt'>) =>
  post.status === 'draft' && !post.scheduledAt;

/**
 * Posts by day of `zone`, each day in time order. A post's time follows docs/product.md#calendar (date, then
 * scheduledAt, then createdAt); posts without a readable one, and unscheduled drafts, are left
 * out. `overrides` holds times of moves the server has not confirmed yet, so a dropped post lands
 * at once.
 */
export function groupByDay(
  posts: readonly Post[],
  zone: string,
  overrides: Readonly<Record<string, string>> = {},
): Map<string, DatedPost[]> {
  const days = new Map<string, DatedPost[]>();
  for (const post of posts) {
    const override = overrides[post.id];
    if (!override && isUnscheduled(post)) continue;
    const date = override ? new Date(override) : postDate(post);
    if (!date) continue;
    const at = wallAt(date, zone);
    const key = dayKey(at);
    const list = days.get(key) ?? [];
    list.push({ post, at });
    days.set(key, list);
  }
  for (const list of days.values()) list.sort((a, b) => a.at.valueOf() - b.at.valueOf());
  return days;
}

/** The same time of day on another day: what dropping a post on a day means. */
export function moveToDay(original: Dayjs, day: Dayjs): Dayjs {
  return day
    .startOf('day')
    .hour(original.hour())
    .minute(original.minute())
    .second(original.second())
    .millisecond(original.millisecond());
}

/** Another day and hour, keeping the minutes: what dropping a post on a time slot means. */
export function moveToSlot(original: Dayjs, day: Dayjs, hour: number): Dayjs {
  return moveToDay(original, day).hour(hour);
}

/** `/create-post?date=YYYY-MM-DD` and, from a time slot, `&time=HH:mm` (the composer reads them). */
export function createPostSearch(day: Dayjs, time?: string): string {
  const params = new URLSearchParams({ date: dayKey(day) });
  if (time) params.set('time', time);
  return `?${params.toString()}`;
}

export const postCountLabel = (count: number) => `${count} post${count === 1 ? '' : 's'}`;

/** The networks of a post as a phrase: "X", "X and Facebook", "X, Facebook and LinkedIn". */
export function networksPhrase(post: Pick<Post, 'platforms'>): string {
  const names = post.platforms.map((p) => p.name);
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
