import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations, reportDeliveries, reportSchedules } from '../../db/schema.js';

export type ReportScheduleRow = typeof reportSchedules.$inferSelect;
export type ReportDeliveryRow = typeof reportDeliveries.$inferSelect;
type ScheduleValues = Pick<
  typeof reportSchedules.$inferInsert,
  'name' | 'integrationIds' | 'cadence' | 'recipients' | 'sendHour' | 'startsAt'
>;

export function listSchedules(db: Db, organizationId: string) {
  return db
    .select()
    .from(reportSchedules)
    .where(eq(reportSchedules.organizationId, organizationId))
    .orderBy(asc(reportSchedules.createdAt), asc(reportSchedules.id));
}

/** Every schedule of every organization, for the sending job (a few per organization). */
export function listAllSchedules(db: Db) {
  return db
    .select()
    .from(reportSchedules)
    .orderBy(asc(reportSchedules.organizationId), asc(reportSchedules.id));
}

export async function findSchedule(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(reportSchedules)
    .where(and(eq(reportSchedules.organizationId, organizationId), eq(reportSchedules.id, id)));
  return row ?? null;
}

export async function countSchedules(db: Db, organizationId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(reportSchedules)
    .where(eq(reportSchedules.organizationId, organizationId));
  return Number(row?.n ?? 0);
}

export async function insertSchedule(
  db: Db,
  values: ScheduleValues & { organizationId: string; createdByUserId: string | null },
) {
  const [row] = await db.insert(reportSchedules).values(values).returning();
  return row!;
}

export async function updateSchedule(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<ScheduleValues>,
) {
  const [row] = await db
    .update(reportSchedules)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(reportSchedules.organizationId, organizationId), eq(reportSchedules.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteSchedule(db: Db, organizationId: string, id: string) {
  const rows = await db
    .delete(reportSchedules)
    .where(and(eq(reportSchedules.organizationId, organizationId), eq(reportSchedules.id, id)))
    .returning({ id: reportSchedules.id });
  return rows.length > 0;
}

/** Which of these account ids are accounts of the organization. */
export async function accountsOfOrganization(db: Db, organizationId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(eq(integrations.organizationId, organizationId), inArray(integrations.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** The deliveries of these schedules, latest period first. */
export function listDeliveries(db: Db, organizationId: string, scheduleIds: string[]) {
  if (scheduleIds.length === 0) return Promise.resolve([] as ReportDeliveryRow[]);
  return db
    .select()
    .from(reportDeliveries)
    .where(
      and(
        eq(reportDeliveries.organizationId, organizationId),
        inArray(reportDeliveries.scheduleId, scheduleIds),
      ),
    )
    .orderBy(desc(reportDeliveries.periodFrom));
}

/** The delivery of one schedule's period, if any. */
export async function findDelivery(db: Db, scheduleId: string, periodFrom: string) {
  const [row] = await db
    .select()
    .from(reportDeliveries)
    .where(
      and(eq(reportDeliveries.scheduleId, scheduleId), eq(reportDeliveries.periodFrom, periodFrom)),
    );
  return row ?? null;
}

/**
 * Claims a schedule's period for sending: the first claim writes the row; a later one takes it
 * over only when the period's last try failed or was left `sending` (its process died) at least
 * `retryBefore` ago and fewer than `maxAttempts` were made. Answers whether this caller holds
 * the claim: of two processes (or two runs) finding the same period due, one does.
 */
export async function claimDelivery(
  db: Db,
  claim: {
    scheduleId: string;
    organizationId: string;
    periodFrom: string;
    periodTo: string;
    now: Date;
    retryBefore: Date;
    maxAttempts: number;
  },
) {
  const rows = await db
    .insert(reportDeliveries)
    .values({
      scheduleId: claim.scheduleId,
      organizationId: claim.organizationId,
      periodFrom: claim.periodFrom,
      periodTo: claim.periodTo,
      status: 'sending',
      attempts: 1,
      claimedAt: claim.now,
    })
    .onConflictDoUpdate({
      target: [reportDeliveries.scheduleId, reportDeliveries.periodFrom],
      set: {
        status: 'sending',
        attempts: sql`${reportDeliveries.attempts} + 1`,
        claimedAt: claim.now,
        error: null,
      },
      setWhere: sql`${reportDeliveries.status} <> 'sent'
        and ${reportDeliveries.attempts} < ${claim.maxAttempts}
        and ${reportDeliveries.claimedAt} < ${claim.retryBefore.toISOString()}::timestamptz`,
    })
    .returning({ attempts: reportDeliveries.attempts });
  return rows.length > 0;
}

/** Records how a claimed send went. */
export async function settleDelivery(
  db: Db,
  scheduleId: string,
  periodFrom: string,
  outcome: { sentAt: Date } | { error: string },
) {
  await db
    .update(reportDeliveries)
    .set(
      'sentAt' in outcome
        ? { status: 'sent', sentAt: outcome.sentAt, error: null }
        : { status: 'failed', error: outcome.error },
    )
    .where(
      and(eq(reportDeliveries.scheduleId, scheduleId), eq(reportDeliveries.periodFrom, periodFrom)),
    );
}
