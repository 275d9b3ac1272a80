import { addDaysTo, dayIn, type AnalyticsBestTimes } from '@herald/contract';

/** docs/product.md#best-time-hint: how far back the hint looks, and how many posts a slot needs. */
export const BEST_TIME_DAYS = 90;
export const BEST_TIME_MIN_POSTS = 2;

export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

export type BestSlot = AnalyticsBestTimes['cells'][number];

/**
 * The weekday and hour the organization's posts did best: the highest engagement rate among
 * slots with enough posts to say something (else the most interactions per post); null when no
 * slot has enough.
 */
export function bestSlot(map: AnalyticsBestTimes): BestSlot | null {
  const enough = map.cells.filter((cell) => cell.posts >= BEST_TIME_MIN_POSTS);
  const byRate = enough.filter((cell) => cell.engagementRate !== null);
  const pool = byRate.length > 0 ? byRate : enough.filter((c) => c.interactionsPerPost !== null);
  const value = (cell: BestSlot) =>
    (byRate.length > 0 ? cell.engagementRate : cell.interactionsPerPost) ?? 0;
  if (pool.length === 0) return null;
  return pool.reduce((best, cell) => (value(cell) > value(best) ? cell : best));
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The next time that weekday and hour comes, as a picker value, from `now` (the picker value of
 * this moment in the same zone). A slot earlier today, or this very hour, is next week's.
 */
export function nextOccurrence(slot: Pick<BestSlot, 'weekday' | 'hour'>, now: string): string {
  const [date = '', time = '00:00'] = now.split('T');
  const today = new Date(`${date}T00:00:00Z`);
  // getUTCDay: 0 = Sunday; the map's weekdays start on Monday.
  const todayWeekday = (today.getUTCDay() + 6) % 7;
  const hourNow = Number(time.slice(0, 2));
  let ahead = (slot.weekday - todayWeekday + 7) % 7;
  if (ahead === 0 && slot.hour <= hourNow) ahead = 7;
  const day = new Date(today.getTime() + ahead * 86_400_000);
  return `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}T${pad(slot.hour)}:00`;
}

/** The range the hint reads: the last BEST_TIME_DAYS days, days of `zone` (the one that applies). */
export function bestTimeRange(zone: string, now: number = Date.now()) {
  const to = dayIn(now, zone);
  return { from: addDaysTo(to, -BEST_TIME_DAYS), to };
}
