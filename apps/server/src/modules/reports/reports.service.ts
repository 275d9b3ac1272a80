import type { Readable } from 'node:stream';
import {
  type CreateReportScheduleRequestSchema,
  REPORT_DEFAULT_SEND_HOUR,
  REPORT_SCHEDULES_MAX,
  type ReportPdfQuery,
  type ReportSchedule,
  type ReportSchedules,
  type UpdateReportScheduleRequestSchema,
} from '@herald/contract';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import type { Mailer } from '../../lib/mailer.js';
import { organizationReportZone, readReportData, type ReportDataDeps } from './report-data.js';
import { reportEmail } from './report-email.js';
import { formatRange } from './report-format.js';
import {
  duePeriod,
  lastCompletePeriod,
  nextDelivery,
  type ReportPeriod,
} from './report-periods.js';
import { renderReportPdf, renderReportPdfBuffer, reportFileName } from './report-pdf.js';
import * as repo from './reports.repository.js';

export interface ReportsDeps extends ReportDataDeps {
  /** Null on a server without SMTP: no report email can go out. */
  mailer: Mailer | null;
  now: () => Date;
}

/** Who asks, and what they may do in the organization. */
export interface ReportsCaller {
  userId: string;
  permissions: readonly string[];
  /** The accounts a member limited to some accounts reaches; null for every account. */
  accountIds: readonly string[] | null;
}

/**
 * Whether a member sees and may change a report email: one limited to some accounts only those
 * that cover accounts of theirs alone (a report on every account names the others' figures).
 */
const withinReach = (caller: Pick<ReportsCaller, 'accountIds'>, row: repo.ReportScheduleRow) =>
  caller.accountIds === null ||
  (row.integrationIds.length > 0 &&
    row.integrationIds.every((id) => caller.accountIds!.includes(id)));

/** A schedule of the organization the caller reaches, or the not-found sentence. */
async function reachableSchedule(
  deps: ReportsDeps,
  caller: Pick<ReportsCaller, 'accountIds'>,
  organizationId: string,
  scheduleId: string,
) {
  const row = await repo.findSchedule(deps.db, organizationId, scheduleId);
  if (!row || !withinReach(caller, row)) throw notFound();
  return row;
}

/** A period's email is tried this many times at most (a mail server that refuses it). */
export const REPORT_MAX_ATTEMPTS = 3;
/** A failed try (or one whose process died mid-send) is tried again this long after it. */
export const REPORT_RETRY_AFTER_MS = 30 * 60_000;

export const EMAIL_UNAVAILABLE =
  'This Herald server sends no email: SMTP_URL is not set. Ask the person who runs Herald to set SMTP_URL (and MAIL_FROM); until then, download the report as a PDF from Analytics.';

const ANALYTICS_NEEDED =
  'Your role does not allow this: report emails send the analytics, so they also need the "View Analytics" permission.';

const notFound = () => new AppError('NOT_FOUND', 'This report email does not exist.');

/**
 * The report of a range as a PDF download, its days in `timeZone` (the analytics screen's for
 * the same reader): the range and filters are checked first (a bad one is a JSON error, not a
 * broken file), then the PDF streams out.
 */
export async function reportPdf(
  deps: ReportsDeps,
  organizationId: string,
  query: ReportPdfQuery,
  timeZone: string,
): Promise<{ filename: string; stream: Readable }> {
  const data = await readReportData(deps, organizationId, query, timeZone, deps.now());
  return {
    filename: reportFileName(data.brand.name, query.from, query.to),
    stream: await renderReportPdf(data),
  };
}

function requireAnalytics(caller: ReportsCaller) {
  if (!caller.permissions.includes('analytics:view'))
    throw new AppError('FORBIDDEN', ANALYTICS_NEEDED);
}

/** Accounts named by a schedule that are (still) the organization's; an unknown one is refused. */
async function checkAccounts(deps: ReportsDeps, organizationId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  const known = await repo.accountsOfOrganization(deps.db, organizationId, unique);
  if (unique.some((id) => !known.has(id)))
    throw new AppError(
      'VALIDATION_FAILED',
      'Choose accounts of this organization: one of the chosen accounts does not exist.',
    );
  return unique;
}

/** The period's done once sent, being sent, or tried as often as it will be. */
const isDone = (delivery: repo.ReportDeliveryRow | undefined) =>
  delivery !== undefined &&
  (delivery.status !== 'failed' || delivery.attempts >= REPORT_MAX_ATTEMPTS);

function toDto(
  row: repo.ReportScheduleRow,
  deliveries: repo.ReportDeliveryRow[],
  zone: string,
  now: Date,
): ReportSchedule {
  const mine = deliveries.filter((d) => d.scheduleId === row.id);
  const byPeriod = new Map(mine.map((d) => [d.periodFrom, d]));
  const next = nextDelivery(row, now, zone, (p) => isDone(byPeriod.get(p.from)));
  const last = mine[0];
  return {
    id: row.id,
    name: row.name,
    integrationIds: row.integrationIds,
    cadence: row.cadence,
    recipients: row.recipients,
    sendHour: row.sendHour,
    nextPeriod: next.period,
    nextSendAt: next.sendAt.toISOString(),
    lastDelivery: last
      ? {
          from: last.periodFrom,
          to: last.periodTo,
          status: last.status,
          at: (last.sentAt ?? last.claimedAt).toISOString(),
          error: last.error,
        }
      : null,
    createdAt: row.createdAt.toISOString(),
  };
}

async function scheduleDto(deps: ReportsDeps, row: repo.ReportScheduleRow) {
  const [zone, deliveries] = await Promise.all([
    organizationReportZone(deps.db, row.organizationId),
    repo.listDeliveries(deps.db, row.organizationId, [row.id]),
  ]);
  return toDto(row, deliveries, zone, deps.now());
}

/** The organization's report emails, the zone their periods are read in, and whether email works. */
export async function listSchedules(
  deps: ReportsDeps,
  caller: Pick<ReportsCaller, 'accountIds'>,
  organizationId: string,
): Promise<ReportSchedules> {
  const [all, zone] = await Promise.all([
    repo.listSchedules(deps.db, organizationId),
    organizationReportZone(deps.db, organizationId),
  ]);
  const rows = all.filter((row) => withinReach(caller, row));
  const deliveries = await repo.listDeliveries(
    deps.db,
    organizationId,
    rows.map((r) => r.id),
  );
  const now = deps.now();
  return {
    schedules: rows.map((row) => toDto(row, deliveries, zone, now)),
    timeZone: zone,
    email: deps.mailer
      ? { available: true, reason: null }
      : { available: false, reason: EMAIL_UNAVAILABLE },
  };
}

export async function createSchedule(
  deps: ReportsDeps,
  caller: ReportsCaller,
  organizationId: string,
  body: z.output<typeof CreateReportScheduleRequestSchema>,
): Promise<ReportSchedule> {
  requireAnalytics(caller);
  const integrationIds = await checkAccounts(deps, organizationId, body.integrationIds ?? []);
  if ((await repo.countSchedules(deps.db, organizationId)) >= REPORT_SCHEDULES_MAX)
    throw new AppError(
      'CONFLICT',
      `This organization already has ${REPORT_SCHEDULES_MAX} report emails, the most it can keep: delete one first.`,
    );
  const row = await repo.insertSchedule(deps.db, {
    organizationId,
    name: body.name,
    integrationIds,
    cadence: body.cadence,
    recipients: body.recipients,
    sendHour: body.sendHour ?? REPORT_DEFAULT_SEND_HOUR,
    startsAt: deps.now(),
    createdByUserId: caller.userId,
  });
  return scheduleDto(deps, row);
}

export async function updateSchedule(
  deps: ReportsDeps,
  caller: ReportsCaller,
  organizationId: string,
  scheduleId: string,
  body: z.output<typeof UpdateReportScheduleRequestSchema>,
): Promise<ReportSchedule> {
  requireAnalytics(caller);
  const current = await reachableSchedule(deps, caller, organizationId, scheduleId);
  const integrationIds =
    body.integrationIds !== undefined
      ? await checkAccounts(deps, organizationId, body.integrationIds)
      : undefined;
  // A new cadence or hour starts afresh: no past period's report goes out because of the change.
  const retimed =
    (body.cadence !== undefined && body.cadence !== current.cadence) ||
    (body.sendHour !== undefined && body.sendHour !== current.sendHour);
  const row = await repo.updateSchedule(deps.db, organizationId, scheduleId, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(integrationIds !== undefined ? { integrationIds } : {}),
    ...(body.cadence !== undefined ? { cadence: body.cadence } : {}),
    ...(body.recipients !== undefined ? { recipients: body.recipients } : {}),
    ...(body.sendHour !== undefined ? { sendHour: body.sendHour } : {}),
    ...(retimed ? { startsAt: deps.now() } : {}),
  });
  if (!row) throw notFound();
  return scheduleDto(deps, row);
}

export async function deleteSchedule(
  deps: ReportsDeps,
  caller: Pick<ReportsCaller, 'accountIds'>,
  organizationId: string,
  scheduleId: string,
) {
  await reachableSchedule(deps, caller, organizationId, scheduleId);
  if (!(await repo.deleteSchedule(deps.db, organizationId, scheduleId))) throw notFound();
}

/**
 * The accounts a schedule's report covers now: every account when it names none; else those it
 * names that still exist (an account removed since is left out). None left is a sentence.
 */
async function accountsNow(deps: ReportsDeps, row: repo.ReportScheduleRow) {
  if (row.integrationIds.length === 0) return undefined;
  const known = await repo.accountsOfOrganization(deps.db, row.organizationId, row.integrationIds);
  const ids = row.integrationIds.filter((id) => known.has(id));
  if (ids.length === 0)
    throw new AppError(
      'VALIDATION_FAILED',
      `The accounts report "${row.name}" covers were all removed: choose its accounts again in Settings.`,
    );
  return ids;
}

/** Makes a schedule's report of `period` (days of `zone`) and emails it to its recipients. */
async function deliver(
  deps: ReportsDeps,
  mailer: Mailer,
  row: repo.ReportScheduleRow,
  period: ReportPeriod,
  zone: string,
) {
  const integrationIds = await accountsNow(deps, row);
  const data = await readReportData(
    deps,
    row.organizationId,
    { from: period.from, to: period.to, ...(integrationIds ? { integrationIds } : {}) },
    zone,
    deps.now(),
  );
  const pdf = await renderReportPdfBuffer(data);
  await mailer.send(reportEmail(data, pdf, row.recipients, row.name));
}

/** An error's sentence for the schedule screen: ours as written, the mail server's cut short. */
function failureOf(error: unknown): string {
  if (error instanceof AppError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `The mail server refused the report: ${message}`.slice(0, 500);
}

/**
 * "Send now": the report of the schedule's last complete period, at once, to its recipients.
 * Not recorded as the period's delivery: the scheduled email still goes out.
 */
export async function sendNow(
  deps: ReportsDeps,
  caller: ReportsCaller,
  organizationId: string,
  scheduleId: string,
) {
  requireAnalytics(caller);
  const row = await reachableSchedule(deps, caller, organizationId, scheduleId);
  if (!deps.mailer) throw new AppError('CONFLICT', EMAIL_UNAVAILABLE);
  const zone = await organizationReportZone(deps.db, organizationId);
  const period = lastCompletePeriod(row.cadence, deps.now(), zone);
  try {
    await deliver(deps, deps.mailer, row, period, zone);
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.log?.warn({ err: error, scheduleId }, 'a report email could not be sent');
    throw new AppError('UNAVAILABLE', failureOf(error));
  }
  return {
    period,
    recipients: row.recipients,
    message: `The report for ${formatRange(period.from, period.to)} was sent to ${row.recipients.join(', ')}.`,
  };
}

/**
 * The sending job's run (docs/reports.md#report-emails): every schedule whose period is due
 * gets its email once. The period is claimed in the database before anything is sent, so two
 * processes, or a run after a restart, never send it twice; a failed send is tried again on a
 * later run (REPORT_RETRY_AFTER_MS apart, REPORT_MAX_ATTEMPTS in all). Without SMTP nothing is
 * claimed: once SMTP is set, the periods still due go out.
 */
export async function sendDueReports(deps: ReportsDeps): Promise<{ sent: number; failed: number }> {
  const mailer = deps.mailer;
  if (!mailer) return { sent: 0, failed: 0 };
  const schedules = await repo.listAllSchedules(deps.db);
  const zones = new Map<string, string>();
  let sent = 0;
  let failed = 0;
  for (const row of schedules) {
    let zone = zones.get(row.organizationId);
    if (!zone) {
      zone = await organizationReportZone(deps.db, row.organizationId);
      zones.set(row.organizationId, zone);
    }
    const now = deps.now();
    const period = duePeriod(row, now, zone);
    if (!period) continue;
    const claimed = await repo.claimDelivery(deps.db, {
      scheduleId: row.id,
      organizationId: row.organizationId,
      periodFrom: period.from,
      periodTo: period.to,
      now,
      retryBefore: new Date(now.getTime() - REPORT_RETRY_AFTER_MS),
      maxAttempts: REPORT_MAX_ATTEMPTS,
    });
    if (!claimed) continue;
    try {
      await deliver(deps, mailer, row, period, zone);
      await repo.settleDelivery(deps.db, row.id, period.from, { sentAt: deps.now() });
      sent += 1;
    } catch (error) {
      deps.log?.warn(
        { err: error, scheduleId: row.id, period },
        'a report email could not be sent',
      );
      await repo.settleDelivery(deps.db, row.id, period.from, { error: failureOf(error) });
      failed += 1;
    }
  }
  return { sent, failed };
}
