import dayjs from 'dayjs';
import { parseWallTime, toZonedLocal, zonedLocalToInstant } from '@/lib/time-zone';
import { parseWall } from '@/lib/zoned-time';

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const TIME_PATTERN = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/** The calendar links with a day only; the post then starts at this time of that day. */
export const DEFAULT_SCHEDULE_TIME = '09:00';

export const SCHEDULE_MISSING = 'Choose the date and time to publish this post.';
export const SCHEDULE_INVALID = 'Enter a valid date and time.';
export const SCHEDULE_IN_PAST =
  'This time is in the past. Choose a later date and time to schedule the post.';

/**
 * The picker's first value from the calendar's link (`?date=YYYY-MM-DD&time=HH:mm`): that day
 * at that time, or at 09:00. Empty when the link carries no real date (e.g. 2026-02-30).
 */
export function scheduleFromSearch(search: URLSearchParams): string {
  const date = search.get('date') ?? '';
  if (!DATE_PATTERN.test(date) || dayjs(date).format('YYYY-MM-DD') !== date) return '';
  const time = search.get('time') ?? '';
  return `${date}T${TIME_PATTERN.test(time) ? time : DEFAULT_SCHEDULE_TIME}`;
}

/**
 * The picker's value is a wall-clock time in the zone that applies (the organization's, else the
 * member's own, else UTC: `useTimeZone`); the server gets the instant as ISO (UTC).
 * Null when the value is not a date.
 */
export function localToIso(local: string, zone: string): string | null {
  if (!local) return null;
  const instant = zonedLocalToInstant(local, zone);
  return instant === null ? null : new Date(instant).toISOString();
}

/** Why the picker's value cannot be used to schedule, or null when it can. */
export function scheduleProblem(
  local: string,
  zone: string,
  now: number = Date.now(),
): string | null {
  if (!local) return SCHEDULE_MISSING;
  const instant = zonedLocalToInstant(local, zone);
  if (instant === null) return SCHEDULE_INVALID;
  return instant <= now ? SCHEDULE_IN_PAST : null;
}

/** The picker's lower bound: the current minute in `zone`. */
export function nowAsLocal(zone: string, now: number = Date.now()): string {
  return toZonedLocal(now, zone);
}

/** "Mar 10, 2026 9:00 AM" for a picker value (it is already the zone's wall-clock time). */
export function formatLocal(local: string): string {
  return parseWallTime(local) ? parseWall(local).format('MMM D, YYYY h:mm A') : 'Invalid date';
}
