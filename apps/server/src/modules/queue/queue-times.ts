import { instantOfWallTime, wallTimeAt } from '@herald/contract';

/** One weekly slot: weekday 0 = Monday … 6 = Sunday, minute of the day in the zone. */
export interface WeeklySlot {
  weekday: number;
  minute: number;
}

const DAY_MS = 86_400_000;

/**
 * The instants (epoch ms, ascending, each once) at which `slots` fall in `zone` within
 * [from, to). Daylight-saving correct: each date's wall time is converted on its own, so 09:00
 * stays 09:00 on the clocks across a change; a slot skipped by a spring-forward change is read
 * with the offset before it (02:30 becomes 03:30), and one that happens twice is the first.
 */
export function slotInstants(
  slots: readonly WeeklySlot[],
  zone: string,
  from: number,
  to: number,
): number[] {
  if (slots.length === 0 || to <= from) return [];
  const byDay = new Map<number, number[]>();
  for (const slot of slots)
    byDay.set(slot.weekday, [...(byDay.get(slot.weekday) ?? []), slot.minute]);
  const start = wallTimeAt(from, zone);
  const end = wallTimeAt(to, zone);
  // Walk wall dates (as UTC midnights) from the day before `from` to the day after `to`.
  const first = Date.UTC(start.year, start.month - 1, start.day) - DAY_MS;
  const last = Date.UTC(end.year, end.month - 1, end.day) + DAY_MS;
  const found = new Set<number>();
  for (let day = first; day <= last; day += DAY_MS) {
    const date = new Date(day);
    const weekday = (date.getUTCDay() + 6) % 7;
    for (const minute of byDay.get(weekday) ?? []) {
      const at = instantOfWallTime(
        {
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day: date.getUTCDate(),
          hour: Math.floor(minute / 60),
          minute: minute % 60,
          second: 0,
          millisecond: 0,
        },
        zone,
      );
      if (at >= from && at < to) found.add(at);
    }
  }
  return [...found].sort((a, b) => a - b);
}
