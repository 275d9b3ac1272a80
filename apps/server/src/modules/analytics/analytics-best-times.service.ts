import type { AnalyticsBestTimes, AnalyticsBestTimesQuery } from '@herald/contract';
import type { Db } from '../../db/client.js';
import * as repo from './analytics-overview.repository.js';
import type { TargetReading } from './analytics-overview.repository.js';
import {
  addDays,
  checkQuery,
  dayStart,
  ENGAGEMENT_FORMULA,
  engagementOf,
} from './analytics-overview.service.js';

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

/**
 * The best-time-to-post map: the range's published targets that have a reading (the latest
 * taken before the range ended, as the KPIs use), grouped by the weekday and hour they were
 * published in the viewer's time zone.
 */
export async function getBestTimes(
  db: Db,
  organizationId: string,
  q: AnalyticsBestTimesQuery,
): Promise<AnalyticsBestTimes> {
  const { filter } = await checkQuery(db, organizationId, q);
  const start = dayStart(q.from);
  const end = addDays(dayStart(q.to), 1);
  const rows = await repo.listTargetReadings(db, filter, start, end, end);
  const read = rows.filter((r) => r.takenAt !== null && r.publishedAt !== null);

  const cells = new Map<string, { weekday: number; hour: number; rows: TargetReading[] }>();
  for (const r of read) {
    const { weekday, hour } = slotOf(r.publishedAt!, q.timezone);
    const key = `${weekday}:${hour}`;
    const cell = cells.get(key) ?? { weekday, hour, rows: [] };
    cell.rows.push(r);
    cells.set(key, cell);
  }
  return {
    timezone: q.timezone,
    posts: read.length,
    engagementFormula: ENGAGEMENT_FORMULA,
    cells: [...cells.values()]
      .sort((a, b) => a.weekday - b.weekday || a.hour - b.hour)
      .map(({ weekday, hour, rows: cellRows }) => {
        const interactions = cellRows
          .map((r) => r.interactions)
          .filter((v): v is number => v !== null);
        return {
          weekday,
          hour,
          posts: cellRows.length,
          engagementRate: engagementOf(cellRows),
          interactionsPerPost: interactions.length
            ? interactions.reduce((a, b) => a + b, 0) / interactions.length
            : null,
        };
      }),
  };
}
