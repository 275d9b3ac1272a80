import { instantOfWallTime, type ReportCadence, wallTimeAt } from '@herald/contract';

/**
 * The periods report emails cover (docs/reports.md#report-emails), as days of the organization's
 * time zone: weekly the Monday–Sunday before the current week, monthly the calendar month before
 * the current one. Days are written `YYYY-MM-DD`; a period's report goes out the day after it
 * ends, at the schedule's hour in that zone.
 */
export interface ReportPeriod {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const dayOf = (utcMidnight: number) => new Date(utcMidnight).toISOString().slice(0, 10);
const midnightOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The last period of `cadence` that has ended at `now`, in `zone`. */
export function lastCompletePeriod(cadence: ReportCadence, now: Date, zone: string): ReportPeriod {
  const wall = wallTimeAt(now.getTime(), zone);
  if (cadence === 'monthly') {
    const thisMonth = Date.UTC(wall.year, wall.month - 1, 1);
    return { from: dayOf(Date.UTC(wall.year, wall.month - 2, 1)), to: dayOf(thisMonth - DAY_MS) };
  }
  const today = Date.UTC(wall.year, wall.month - 1, wall.day);
  // getUTCDay: 0 is Sunday; weeks start on Monday.
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  return { from: dayOf(monday - 7 * DAY_MS), to: dayOf(monday - DAY_MS) };
}

/** The period right after `period`. */
export function periodAfter(cadence: ReportCadence, period: ReportPeriod): ReportPeriod {
  const start = midnightOf(period.to) + DAY_MS;
  if (cadence === 'weekly') return { from: dayOf(start), to: dayOf(start + 6 * DAY_MS) };
  const first = new Date(start);
  const nextMonth = Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 1);
  return { from: dayOf(start), to: dayOf(nextMonth - DAY_MS) };
}

/** When the report of `period` goes out: the day after it ends, at `sendHour` in `zone`. */
export function sendTimeOf(period: ReportPeriod, sendHour: number, zone: string): Date {
  const day = new Date(midnightOf(period.to) + DAY_MS);
  return new Date(
    instantOfWallTime(
      {
        year: day.getUTCFullYear(),
        month: day.getUTCMonth() + 1,
        day: day.getUTCDate(),
        hour: sendHour,
        minute: 0,
        second: 0,
        millisecond: 0,
      },
      zone,
    ),
  );
}

/**
 * The period whose report is due at `now`, or null: the last complete period once its send time
 * has come, unless that time fell before the schedule started (`startsAt`: created, or its
 * cadence or hour changed), so a new schedule never sends a past period's report at once.
 */
export function duePeriod(
  schedule: { cadence: ReportCadence; sendHour: number; startsAt: Date },
  now: Date,
  zone: string,
): ReportPeriod | null {
  const period = lastCompletePeriod(schedule.cadence, now, zone);
  const sendAt = sendTimeOf(period, schedule.sendHour, zone);
  if (sendAt > now || sendAt < schedule.startsAt) return null;
  return period;
}

/** The next email a schedule sends, given the periods already done (sent, or given up on). */
export function nextDelivery(
  schedule: { cadence: ReportCadence; sendHour: number; startsAt: Date },
  now: Date,
  zone: string,
  isDone: (period: ReportPeriod) => boolean,
): { period: ReportPeriod; sendAt: Date } {
  let period = lastCompletePeriod(schedule.cadence, now, zone);
  let sendAt = sendTimeOf(period, schedule.sendHour, zone);
  if (sendAt < schedule.startsAt || isDone(period)) {
    period = periodAfter(schedule.cadence, period);
    sendAt = sendTimeOf(period, schedule.sendHour, zone);
  }
  return { period, sendAt };
}
