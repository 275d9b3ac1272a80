/**
 * Wall-clock time in an IANA zone, on Intl only (exact across daylight-saving changes). Shared
 * by the web (pickers, calendar) and the server (the posting queue's weekly slots, CSV times).
 */
/** A wall-clock reading: what a clock on the wall in some zone shows. */
export interface WallTime {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();
function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormats.set(zone, format);
  }
  return format;
}

/** What the clocks in `zone` show at the instant `ms` (epoch milliseconds). */
export function wallTimeAt(ms: number, zone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of partsFormat(zone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
}

const wallAsUtc = (w: WallTime) =>
  Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond);

/** How far `zone` is ahead of UTC at the instant `ms`, in milliseconds. */
export function zoneOffset(ms: number, zone: string): number {
  return wallAsUtc(wallTimeAt(ms, zone)) - ms;
}

/**
 * The instant at which the clocks in `zone` show `wall`. A time skipped by a spring-forward
 * change is read with the offset before it (02:30 becomes 03:30); a time that happens twice in
 * the autumn is the first of the two.
 */
export function instantOfWallTime(wall: WallTime, zone: string): number {
  const asUtc = wallAsUtc(wall);
  const before = asUtc - zoneOffset(asUtc - 86_400_000, zone);
  const after = asUtc - zoneOffset(asUtc + 86_400_000, zone);
  const first = Math.min(before, after);
  const second = Math.max(before, after);
  if (wallAsUtc(wallTimeAt(first, zone)) === asUtc) return first;
  if (wallAsUtc(wallTimeAt(second, zone)) === asUtc) return second;
  return before;
}

const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

/** Reads "YYYY-MM-DD" or "YYYY-MM-DDTHH:mm[:ss[.SSS]]" (a picker value); null when it is not one. */
export function parseWallTime(value: string): WallTime | null {
  const match = LOCAL_PATTERN.exec(value);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = match;
  const wall: WallTime = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h),
    minute: Number(mi),
    second: Number(s),
    millisecond: Number(ms.padEnd(3, '0')),
  };
  // Refuse what the calendar does not have (Feb 30th, 25:00).
  const check = new Date(wallAsUtc(wall));
  if (
    check.getUTCFullYear() !== wall.year ||
    check.getUTCMonth() + 1 !== wall.month ||
    check.getUTCDate() !== wall.day ||
    check.getUTCHours() !== wall.hour ||
    check.getUTCMinutes() !== wall.minute
  ) {
    return null;
  }
  return wall;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "YYYY-MM-DDTHH:mm", the value format of `<input type="datetime-local">`. */
export function formatWallTime(wall: WallTime): string {
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}`;
}

/** The picker value for the instant `ms` in `zone`. */
export function toZonedLocal(ms: number, zone: string): string {
  return formatWallTime(wallTimeAt(ms, zone));
}

/** The instant (epoch ms) a picker value means in `zone`, or null when it is not a time. */
export function zonedLocalToInstant(local: string, zone: string): number | null {
  const wall = parseWallTime(local);
  return wall ? instantOfWallTime(wall, zone) : null;
}

const dayText = (year: number, month: number, day: number) =>
  `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

/** The day ("YYYY-MM-DD") the clocks in `zone` show at the instant `ms`. */
export function dayIn(ms: number, zone: string): string {
  const w = wallTimeAt(ms, zone);
  return dayText(w.year, w.month, w.day);
}

/** The day `days` calendar days after `day` ("YYYY-MM-DD"; negative goes back). */
export function addDaysTo(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  const shifted = new Date(Date.UTC(year!, month! - 1, date! + days));
  return dayText(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, shifted.getUTCDate());
}

/**
 * The instant (epoch ms) at which `day` ("YYYY-MM-DD") begins in `zone`: its midnight, or the
 * first moment after it where a daylight-saving change skips midnight (as in America/Santiago).
 */
export function dayStartIn(day: string, zone: string): number {
  const [year, month, date] = day.split('-').map(Number);
  const midnight = {
    year: year!,
    month: month!,
    day: date!,
    hour: 0,
    minute: 0,
    second: 0,
    millisecond: 0,
  };
  // A skipped midnight is read with the offset before the change: the day's first moment.
  return instantOfWallTime(midnight, zone);
}
