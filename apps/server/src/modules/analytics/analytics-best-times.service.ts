import type { AnalyticsBestTimes, AnalyticsBestTimesQuery } from '@herald/contract';
import type { Db } from '../../db/client.js';
import * as repo from './analytics-overview.repository.js';
import { checkQuery, ENGAGEMENT_FORMULA, rangeIn } from './analytics-overview.service.js';

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/**
 * One formatter per time zone: making an `Intl.DateTimeFormat` costs far more than using one, and
 * the map formats every target of the range (thousands; measured by bench/analytics.mjs).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string) {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: 'numeric',
      hourCycle: 'h23',
    });
    if (formatters.size > 500) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Weekday (0 = Monday) and hour of an instant in `timeZone`. */
export function slotOf(instant: string, timeZone: string) {
  const parts = formatterOf(timeZone).formatToParts(new Date(instant));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { weekday: WEEKDAYS.indexOf(part('weekday')), hour: Number(part('hour')) % 24 };
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
/** How far `timeZone`'s wall clock is ahead of UTC at `ms`, a whole second since the epoch. */
function offsetAt(ms: number, timeZone: string) {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    if (offsetFormatters.size > 500) offsetFormatters.clear();
    offsetFormatters.set(timeZone, formatter);
  }
  const n = (type: string) =>
    Number(formatter.formatToParts(ms).find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - ms;
}

/**
 * Weekday and hour in `timeZone` for many instants, with one time-zone lookup per UTC day
 * rather than per instant (formatting a date in a zone costs about 10 µs; a 90-day map places
 * thousands of posts). A day whose midnights have the same offset has that offset all day
 * (zones change offset at most a few times a year, never twice in a day); a day with a change
 * asks the zone for each of its instants, as `slotOf` does.
 */
export function slotFinder(timeZone: string) {
  const dayOffsets = new Map<number, number | null>();
  // Midnights UTC are whole seconds, which `offsetAt` needs.
  return (ms: number) => {
    const day = Math.floor(ms / DAY_MS);
    let offset = dayOffsets.get(day);
    if (offset === undefined) {
      const first = offsetAt(day * DAY_MS, timeZone);
      offset = first === offsetAt((day + 1) * DAY_MS, timeZone) ? first : null;
      dayOffsets.set(day, offset);
    }
    if (offset === null) return slotOf(new Date(ms).toISOString(), timeZone);
    const local = new Date(ms + offset);
    return { weekday: (local.getUTCDay() + 6) % 7, hour: local.getUTCHours() };
  };
}

/**
 * The best-time-to-post map: the range's published targets that have a reading (the latest
 * taken before the range ended, as the KPIs use), grouped by the weekday and hour they were
 * published in `zone` (the range's days are that zone's too).
 */
export async function getBestTimes(
  db: Db,
  organizationId: string,
  q: AnalyticsBestTimesQuery,
  zone: string,
): Promise<AnalyticsBestTimes> {
  const { filter } = await checkQuery(db, organizationId, q);
  const { start, end } = rangeIn(q.from, q.to, zone);
  const rows = await repo.listReadTargetSlots(db, filter, start, end, end);
  const slot = slotFinder(zone);

  interface Cell {
    weekday: number;
    hour: number;
    posts: number;
    rateInteractions: number;
    rateBase: number;
    interactions: number;
    withInteractions: number;
  }
  const cells = new Map<number, Cell>();
  for (const r of rows) {
    const { weekday, hour } = slot(r.publishedMs);
    const key = weekday * 24 + hour;
    let cell = cells.get(key);
    if (!cell) {
      cell = {
        weekday,
        hour,
        posts: 0,
        rateInteractions: 0,
        rateBase: 0,
        interactions: 0,
        withInteractions: 0,
      };
      cells.set(key, cell);
    }
    cell.posts += 1;
    if (r.interactions !== null) {
      cell.interactions += r.interactions;
      cell.withInteractions += 1;
      if (r.base !== null) {
        cell.rateInteractions += r.interactions;
        cell.rateBase += r.base;
      }
    }
  }
  return {
    timezone: zone,
    posts: rows.length,
    engagementFormula: ENGAGEMENT_FORMULA,
    cells: [...cells.values()]
      .sort((a, b) => a.weekday - b.weekday || a.hour - b.hour)
      .map((c) => ({
        weekday: c.weekday,
        hour: c.hour,
        posts: c.posts,
        // The formula of `engagementOf`, from the sums kept while placing the posts.
        engagementRate: c.rateBase > 0 ? c.rateInteractions / c.rateBase : null,
        interactionsPerPost: c.withInteractions ? c.interactions / c.withInteractions : null,
      })),
  };
}
