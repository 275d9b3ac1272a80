import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { instantOfWallTime, wallTimeAt, type WallTime } from './time-zone';

dayjs.extend(utc);

/**
 * Times of a chosen zone as dayjs values. A "wall" Dayjs holds what the clocks in that zone show,
 * kept in dayjs' UTC mode so that its calendar arithmetic (start of day, add a day) and its
 * `format` never pass through the browser's own zone. Convert back with `wallToIso` before
 * sending it anywhere: its own `toISOString()` is the wall time, not the instant.
 */

/** The wall time in `zone` at an instant (ISO text, Date or epoch ms). Invalid for bad input. */
export function wallAt(instant: string | number | Date, zone: string): Dayjs {
  const ms = instant instanceof Date ? instant.getTime() : new Date(instant).getTime();
  if (Number.isNaN(ms)) return dayjs.utc('invalid');
  const w = wallTimeAt(ms, zone);
  return dayjs.utc(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond));
}

/** The wall time in `zone` now. */
export const wallNow = (zone: string, now: number = Date.now()) => wallAt(now, zone);

/** A wall value from picker text ("YYYY-MM-DD" or "YYYY-MM-DDTHH:mm"). */
export const parseWall = (value: string): Dayjs => dayjs.utc(value);

const fieldsOf = (wall: Dayjs): WallTime => ({
  year: wall.year(),
  month: wall.month() + 1,
  day: wall.date(),
  hour: wall.hour(),
  minute: wall.minute(),
  second: wall.second(),
  millisecond: wall.millisecond(),
});

/** The instant (epoch ms) at which the clocks in `zone` show `wall`. */
export const wallToInstant = (wall: Dayjs, zone: string): number =>
  instantOfWallTime(fieldsOf(wall), zone);

/** The instant as ISO text (UTC), what the server is sent. */
export const wallToIso = (wall: Dayjs, zone: string): string =>
  new Date(wallToInstant(wall, zone)).toISOString();

/** A stored instant written in `zone`, e.g. "Mar 10, 2026 9:00 AM"; null when unreadable. */
export function formatInZone(
  instant: string | number | Date,
  zone: string,
  format: string,
): string | null {
  const wall = wallAt(instant, zone);
  return wall.isValid() ? wall.format(format) : null;
}
