import { and, asc, count, eq, inArray, max } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  evergreenCollections,
  evergreenFills,
  evergreenPosts,
  postRepeats,
  posts,
  postTargetFollowUps,
  postTargets,
} from '../../db/schema.js';

export type CollectionRow = typeof evergreenCollections.$inferSelect;
export type RepeatRow = typeof postRepeats.$inferSelect;

export function listCollections(db: Db, organizationId: string) {
  return db
    .select()
    .from(evergreenCollections)
    .where(eq(evergreenCollections.organizationId, organizationId))
    .orderBy(asc(evergreenCollections.createdAt), asc(evergreenCollections.id));
}

export async function findCollection(db: Db, organizationId: string, collectionId: string) {
  const [row] = await db
    .select()
    .from(evergreenCollections)
    .where(
      and(
        eq(evergreenCollections.organizationId, organizationId),
        eq(evergreenCollections.id, collectionId),
      ),
    );
  return row ?? null;
}

export async function insertCollection(db: Db, values: typeof evergreenCollections.$inferInsert) {
  const [row] = await db.insert(evergreenCollections).values(values).returning();
  return row!;
}

export async function updateCollection(
  db: Db,
  organizationId: string,
  collectionId: string,
  changes: Partial<typeof evergreenCollections.$inferInsert>,
) {
  const [row] = await db
    .update(evergreenCollections)
    .set({ ...changes, updatedAt: new Date() })
    .where(
      and(
        eq(evergreenCollections.organizationId, organizationId),
        eq(evergreenCollections.id, collectionId),
      ),
    )
    .returning();
  return row ?? null;
}

export async function deleteCollection(db: Db, organizationId: string, collectionId: string) {
  await db
    .delete(evergreenCollections)
    .where(
      and(
        eq(evergreenCollections.organizationId, organizationId),
        eq(evergreenCollections.id, collectionId),
      ),
    );
}

/** The organizations that have a collection not paused (the job's work). */
export async function organizationsWithActiveCollections(db: Db) {
  const rows = await db
    .selectDistinct({ organizationId: evergreenCollections.organizationId })
    .from(evergreenCollections)
    .where(eq(evergreenCollections.paused, false));
  return rows.map((r) => r.organizationId);
}

/** The posts of collections, in each collection's order, with what the label is made of. */
export function postsOfCollections(db: Db, organizationId: string, collectionIds: string[]) {
  if (collectionIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      collectionId: evergreenPosts.collectionId,
      postId: evergreenPosts.postId,
      position: evergreenPosts.position,
      addedAt: evergreenPosts.createdAt,
      title: posts.title,
      content: posts.content,
      publishedAt: posts.publishedAt,
    })
    .from(evergreenPosts)
    .innerJoin(posts, eq(posts.id, evergreenPosts.postId))
    .where(
      and(
        eq(evergreenPosts.organizationId, organizationId),
        inArray(evergreenPosts.collectionId, collectionIds),
      ),
    )
    .orderBy(asc(evergreenPosts.position), asc(evergreenPosts.createdAt));
}

export async function addPosts(
  db: Db,
  organizationId: string,
  collectionId: string,
  postIds: string[],
) {
  const [last] = await db
    .select({ position: max(evergreenPosts.position) })
    .from(evergreenPosts)
    .where(eq(evergreenPosts.collectionId, collectionId));
  const start = (last?.position ?? -1) + 1;
  if (postIds.length === 0) return;
  await db
    .insert(evergreenPosts)
    .values(
      postIds.map((postId, i) => ({ organizationId, collectionId, postId, position: start + i })),
    )
    .onConflictDoNothing();
}

export async function removePost(
  db: Db,
  organizationId: string,
  collectionId: string,
  postId: string,
) {
  const removed = await db
    .delete(evergreenPosts)
    .where(
      and(
        eq(evergreenPosts.organizationId, organizationId),
        eq(evergreenPosts.collectionId, collectionId),
        eq(evergreenPosts.postId, postId),
      ),
    )
    .returning({ id: evergreenPosts.id });
  return removed.length > 0;
}

/** Every copy the collections made: which post, and the slot it was given. */
export function fillsOf(db: Db, organizationId: string, collectionIds: string[]) {
  if (collectionIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      collectionId: evergreenFills.collectionId,
      sourcePostId: evergreenFills.sourcePostId,
      copyPostId: evergreenFills.copyPostId,
      slotAt: evergreenFills.slotAt,
    })
    .from(evergreenFills)
    .where(
      and(
        eq(evergreenFills.organizationId, organizationId),
        inArray(evergreenFills.collectionId, collectionIds),
      ),
    );
}

/** How many copies each collection made, and the latest slot. */
export async function fillTotals(db: Db, organizationId: string) {
  const rows = await db
    .select({
      collectionId: evergreenFills.collectionId,
      fills: count(),
      last: max(evergreenFills.slotAt),
    })
    .from(evergreenFills)
    .where(eq(evergreenFills.organizationId, organizationId))
    .groupBy(evergreenFills.collectionId);
  return new Map(rows.map((r) => [r.collectionId, { fills: Number(r.fills), last: r.last }]));
}

export async function recordFill(db: Db, values: typeof evergreenFills.$inferInsert) {
  await db.insert(evergreenFills).values(values);
}

/** The accounts of a post with the settings chosen for each. */
export function targetsOfPost(db: Db, organizationId: string, postId: string) {
  return db
    .select({
      id: postTargets.id,
      integrationId: postTargets.integrationId,
      settings: postTargets.settings,
    })
    .from(postTargets)
    .where(and(eq(postTargets.organizationId, organizationId), eq(postTargets.postId, postId)));
}

/** A post's thread parts and first comment per account (copied with it). */
export function followUpsOfPost(db: Db, organizationId: string, postId: string) {
  return db
    .select({
      integrationId: postTargets.integrationId,
      kind: postTargetFollowUps.kind,
      position: postTargetFollowUps.position,
      text: postTargetFollowUps.text,
    })
    .from(postTargetFollowUps)
    .innerJoin(postTargets, eq(postTargets.id, postTargetFollowUps.targetId))
    .where(
      and(eq(postTargetFollowUps.organizationId, organizationId), eq(postTargets.postId, postId)),
    );
}

export async function insertFollowUps(
  db: Db,
  rows: Array<typeof postTargetFollowUps.$inferInsert>,
) {
  if (rows.length > 0) await db.insert(postTargetFollowUps).values(rows);
}

// Repeats

export async function repeatOfPost(db: Db, organizationId: string, postId: string) {
  const [row] = await db
    .select()
    .from(postRepeats)
    .where(and(eq(postRepeats.organizationId, organizationId), eq(postRepeats.postId, postId)));
  return row ?? null;
}

export async function upsertRepeat(db: Db, values: typeof postRepeats.$inferInsert) {
  const [row] = await db
    .insert(postRepeats)
    .values(values)
    .onConflictDoUpdate({
      target: postRepeats.postId,
      set: {
        every: values.every,
        unit: values.unit,
        until: values.until,
        createdByUserId: values.createdByUserId,
        updatedAt: new Date(),
      },
    })
    .returning();
  return row!;
}

export async function deleteRepeat(db: Db, organizationId: string, postId: string) {
  const rows = await db
    .delete(postRepeats)
    .where(and(eq(postRepeats.organizationId, organizationId), eq(postRepeats.postId, postId)))
    .returning({ id: postRepeats.id });
  return rows.length > 0;
}

/**
 * Repeats whose latest occurrence has gone out (being published, published, partly or failed):
 * the next is due to be made. Locked, skipping those another worker holds.
 */
export function repeatsGoneOut(db: Db, limit: number) {
  return db
    .select({ repeat: postRepeats, scheduledAt: posts.scheduledAt })
    .from(postRepeats)
    .innerJoin(posts, eq(posts.id, postRepeats.postId))
    .where(inArray(posts.status, ['publishing', 'published', 'partially_published', 'failed']))
    .limit(limit)
    .for('update', { of: postRepeats, skipLocked: true });
}

export async function moveRepeat(db: Db, id: string, postId: string, occurrences: number) {
  await db
    .update(postRepeats)
    .set({ postId, occurrences, updatedAt: new Date() })
    .where(eq(postRepeats.id, id));
}

export async function endRepeat(db: Db, id: string) {
  await db.delete(postRepeats).where(eq(postRepeats.id, id));
}
