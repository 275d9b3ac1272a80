import { and, eq, exists, gte, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations, platforms, postMedia, posts, postTargets } from '../../db/schema.js';

export type TargetRow = typeof postTargets.$inferSelect;
export type TargetStatus = TargetRow['status'];
export const FINAL: TargetStatus[] = ['PUBLISHED', 'FAILED', 'UNCERTAIN'];

/** A target with everything publishing it needs. */
export async function loadTarget(db: Db, targetId: string) {
  const [row] = await db
    .select({
      target: postTargets,
      post: posts,
      platformName: platforms.name,
      integration: integrations,
    })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .leftJoin(integrations, eq(integrations.id, postTargets.integrationId))
    .where(eq(postTargets.id, targetId));
  if (!row) return null;
  const media = await db
    .select()
    .from(postMedia)
    .where(eq(postMedia.postId, row.post.id))
    .orderBy(postMedia.position);
  return { ...row, media };
}

/**
 * Moves a target from one of `from` to `to`, only if it is still there (and, for PUBLISHING, only
 * for the attempt that holds it). Returns the row when this caller made the move.
 */
export async function transition(
  db: Db,
  targetId: string,
  from: TargetStatus[],
  to: TargetStatus,
  values: Partial<TargetRow> = {},
  attemptId?: string,
) {
  const [row] = await db
    .update(postTargets)
    .set({ ...values, status: to, updatedAt: new Date() })
    .where(
      and(
        eq(postTargets.id, targetId),
        inArray(postTargets.status, from),
        attemptId ? eq(postTargets.attemptId, attemptId) : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Claims a QUEUED target for preparing — only while its post still wants it out now: the post is
 * scheduled or publishing, and the target is due. A post sent back to draft or moved later
 * between the job's first look and this claim is left alone.
 */
/**
 * Claims a target for its next step — only while its post still wants it out now: the post is
 * scheduled or publishing, and the target is due. A post sent back to draft or moved later
 * between the job's first look and this claim is left alone.
 */
export async function claimDue(
  db: Db,
  targetId: string,
  from: 'QUEUED' | 'READY',
  values: Partial<TargetRow> & { status: TargetStatus },
  dueBy: Date,
) {
  const [row] = await db
    .update(postTargets)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(postTargets.id, targetId),
        eq(postTargets.status, from),
        or(isNull(postTargets.dueAt), lte(postTargets.dueAt, dueBy)),
        exists(
          db
            .select({ id: posts.id })
            .from(posts)
            .where(
              and(
                eq(posts.id, postTargets.postId),
                inArray(posts.status, ['scheduled', 'publishing']),
              ),
            ),
        ),
      ),
    )
    .returning();
  return row ?? null;
}

function targetsOfPost(db: Db, postId: string) {
  return db.select().from(postTargets).where(eq(postTargets.postId, postId));
}

/** Targets stuck in a working state since before `before` (a worker died or hung). */
export function stuckTargets(db: Db, statuses: TargetStatus[], before: Date, limit = 500) {
  return db
    .select({ id: postTargets.id, status: postTargets.status, attemptId: postTargets.attemptId })
    .from(postTargets)
    .where(and(inArray(postTargets.status, statuses), lt(postTargets.updatedAt, before)))
    .limit(limit);
}

/** QUEUED targets of posts that should be going out already (their job may be lost). */
export function overdueQueued(db: Db, before: Date, limit = 1000) {
  return db
    .select({ id: postTargets.id })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .where(
      and(
        eq(postTargets.status, 'QUEUED'),
        lt(postTargets.dueAt, before),
        inArray(posts.status, ['scheduled', 'publishing']),
      ),
    )
    .limit(limit);
}

/** Publications of one account in the window, oldest first (daily caps). */
export function publishedSince(db: Db, integrationId: string, since: Date) {
  return db
    .select({ publishedAt: postTargets.publishedAt })
    .from(postTargets)
    .where(
      and(
        eq(postTargets.integrationId, integrationId),
        eq(postTargets.status, 'PUBLISHED'),
        gte(postTargets.publishedAt, since),
      ),
    )
    .orderBy(postTargets.publishedAt);
}

/** A scheduled post whose first target starts is publishing (one guarded UPDATE). */
export async function markPostPublishing(db: Db, postId: string) {
  await db
    .update(posts)
    .set({ status: 'publishing', updatedAt: new Date() })
    .where(and(eq(posts.id, postId), eq(posts.status, 'scheduled')));
}

/** The post's status from its targets: publishing while any works, else published or failed. */
export async function settlePostStatus(db: Db, postId: string) {
  const targets = await targetsOfPost(db, postId);
  if (targets.length === 0) return null;
  const published = targets.filter((t) => t.status === 'PUBLISHED');
  const working = targets.some((t) => !FINAL.includes(t.status));
  const [post] = await db.select().from(posts).where(eq(posts.id, postId));
  if (!post || post.status === 'draft') return post ?? null;
  const status = working ? 'publishing' : published.length > 0 ? 'published' : 'failed';
  const publishedAt =
    published.length > 0
      ? new Date(Math.max(...published.map((t) => t.publishedAt?.getTime() ?? 0)))
      : null;
  const [row] = await db
    .update(posts)
    .set({ status, publishedAt, updatedAt: new Date() })
    .where(eq(posts.id, postId))
    .returning();
  return row ?? null;
}

/** Targets of a post that a new due time applies to: failed ones are tried again. */
export async function requeueForPost(db: Db, postId: string, dueAt: Date) {
  await db
    .update(postTargets)
    .set({ status: 'QUEUED', error: null, attempts: 0, updatedAt: new Date() })
    .where(and(eq(postTargets.postId, postId), eq(postTargets.status, 'FAILED')));
  return db
    .update(postTargets)
    .set({ dueAt, updatedAt: new Date() })
    .where(and(eq(postTargets.postId, postId), eq(postTargets.status, 'QUEUED')))
    .returning({ id: postTargets.id });
}

/** Forgets the due time of a post's waiting targets; returns their jobs to cancel. */
export async function clearDue(db: Db, postId: string) {
  const rows = await db
    .update(postTargets)
    .set({ dueAt: null, jobId: null, updatedAt: new Date() })
    .where(and(eq(postTargets.postId, postId), eq(postTargets.status, 'QUEUED')))
    .returning({ jobId: postTargets.jobId });
  return rows.flatMap((r) => (r.jobId ? [r.jobId] : []));
}

export async function setJobId(db: Db, targetId: string, jobId: string | null) {
  await db.update(postTargets).set({ jobId }).where(eq(postTargets.id, targetId));
}
