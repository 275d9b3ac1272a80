import { instantOfWallTime, wallTimeAt } from './wall-time.js';

/**
 * Moving posts by whole days in a zone (docs/product.md#bulk-actions), the rule the calendar's
 * drag and drop follows: a post keeps the time of day its clocks show, only its day changes, so
 * 09:00 stays 09:00 across a daylight-saving change. The server's bulk reschedule and the web's
 * dialog (its preview and Undo) both run these.
 */

/** A calendar day. */
export interface CalendarDay {
  year: number;
  month: number; // 1–12
  day: number;
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Reads "YYYY-MM-DD"; null when it is not a day the calendar has (Feb 30th). */
export function parseDay(value: string): CalendarDay | null {
  const match = DAY_PATTERN.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day
  ) {
    return null;
  }
  return { year, month, day };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The day (as "YYYY-MM-DD") the clocks in `zone` show at the instant `ms`. */
export function dayInZone(ms: number, zone: string): string {
  const wall = wallTimeAt(ms, zone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** The instant on `day` at which the clocks in `zone` show the time of day they show at `ms`. */
export function sameTimeOnDay(ms: number, zone: string, day: CalendarDay): number {
  const wall = wallTimeAt(ms, zone);
  return instantOfWallTime({ ...wall, year: day.year, month: day.month, day: day.day }, zone);
}

/** `ms` moved by `days` whole days (back when negative) in `zone`, keeping its time of day. */
export function shiftByDays(ms: number, zone: string, days: number): number {
  const wall = wallTimeAt(ms, zone);
  const moved = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return sameTimeOnDay(ms, zone, {
    year: moved.getUTCFullYear(),
    month: moved.getUTCMonth() + 1,
    day: moved.getUTCDate(),
  });
}
