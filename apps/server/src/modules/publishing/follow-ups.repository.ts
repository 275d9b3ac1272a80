import { webUrlOrNull } from '@herald/contract';
import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { postTargetFollowUps, postTargets } from '../../db/schema.js';

/** The stored thread parts and first comments of publications (follow-ups.ts). */

export type FollowUpRow = typeof postTargetFollowUps.$inferSelect;
export type NewFollowUp = typeof postTargetFollowUps.$inferInsert;
type FollowUpStatus = FollowUpRow['status'];

export function followUpsOf(db: Db, targetId: string) {
  return db
    .select()
    .from(postTargetFollowUps)
    .where(eq(postTargetFollowUps.targetId, targetId))
    .orderBy(asc(postTargetFollowUps.position));
}

/** One follow-up by id, or undefined. */
export async function followUpById(db: Db, id: string): Promise<FollowUpRow | undefined> {
  const [row] = await db.select().from(postTargetFollowUps).where(eq(postTargetFollowUps.id, id));
  return row;
}

/** The follow-ups of several targets of the organization, in their order. */
export function followUpsOfTargets(db: Db, organizationId: string, targetIds: string[]) {
  return db
    .select()
    .from(postTargetFollowUps)
    .where(
      and(
        eq(postTargetFollowUps.organizationId, organizationId),
        inArray(postTargetFollowUps.targetId, targetIds),
      ),
    )
    .orderBy(asc(postTargetFollowUps.position));
}

/** Replaces a target's follow-ups with `rows` (none: it has none left). */
export async function replaceFollowUpRows(tx: Db, targetId: string, rows: NewFollowUp[]) {
  await tx.delete(postTargetFollowUps).where(eq(postTargetFollowUps.targetId, targetId));
  if (rows.length > 0) await tx.insert(postTargetFollowUps).values(rows);
}

/** Moves a follow-up from one of `from` to `to`, only if it is still there (and held by `attemptId`). */
export async function transitionFollowUp(
  db: Db,
  id: string,
  from: FollowUpStatus[],
  to: FollowUpStatus,
  values: Partial<FollowUpRow> = {},
  attemptId?: string,
) {
  // A permalink is shown as a link: only a web address the network gave is kept.
  const permalink =
    values.permalink === undefined ? {} : { permalink: webUrlOrNull(values.permalink) };
  const [row] = await db
    .update(postTargetFollowUps)
    .set({ ...values, ...permalink, status: to, updatedAt: new Date() })
    .where(
      and(
        eq(postTargetFollowUps.id, id),
        inArray(postTargetFollowUps.status, from),
        attemptId ? eq(postTargetFollowUps.attemptId, attemptId) : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

/** The FAILED ones among `ids` go again from the start: QUEUED, no error, no attempts. */
export async function requeueFailedFollowUps(db: Db, ids: string[], now: Date) {
  await db
    .update(postTargetFollowUps)
    .set({ status: 'QUEUED', error: null, attempts: 0, updatedAt: now })
    .where(and(inArray(postTargetFollowUps.id, ids), eq(postTargetFollowUps.status, 'FAILED')));
}

/** Whether a published target still has parts or a first comment waiting to go. */
export async function hasQueuedFollowUps(db: Db, targetId: string) {
  const rows = await db
    .select({ id: postTargetFollowUps.id })
    .from(postTargetFollowUps)
    .where(
      and(eq(postTargetFollowUps.targetId, targetId), eq(postTargetFollowUps.status, 'QUEUED')),
    )
    .limit(1);
  return rows.length > 0;
}

/** Follow-ups left PUBLISHING since before `before` (their worker stopped). */
export function stuckFollowUps(db: Db, before: Date, limit = 500) {
  return db
    .select({ id: postTargetFollowUps.id, attemptId: postTargetFollowUps.attemptId })
    .from(postTargetFollowUps)
    .where(
      and(eq(postTargetFollowUps.status, 'PUBLISHING'), lt(postTargetFollowUps.updatedAt, before)),
    )
    .limit(limit);
}

/** Published targets whose waiting follow-ups nobody has touched since `before` (a lost job). */
export async function targetsWithWaitingFollowUps(db: Db, before: Date, limit = 500) {
  const rows = await db
    .selectDistinct({ id: postTargetFollowUps.targetId })
    .from(postTargetFollowUps)
    .innerJoin(postTargets, eq(postTargets.id, postTargetFollowUps.targetId))
    .where(
      and(
        eq(postTargetFollowUps.status, 'QUEUED'),
        lt(postTargetFollowUps.updatedAt, before),
        eq(postTargets.status, 'PUBLISHED'),
      ),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}
