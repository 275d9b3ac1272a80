import { and, asc, eq, isNull } from 'drizzle-orm';
import type { ComposerDraftBody } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { composerDrafts, hashtagGroups } from '../../db/schema/composer.js';

export type ComposerDraftRow = typeof composerDrafts.$inferSelect;

const ownedBy = (organizationId: string, userId: string, postId: string | null) =>
  and(
    eq(composerDrafts.organizationId, organizationId),
    eq(composerDrafts.userId, userId),
    postId === null ? isNull(composerDrafts.postId) : eq(composerDrafts.postId, postId),
  );

export async function findDraft(
  db: Db,
  organizationId: string,
  userId: string,
  postId: string | null,
) {
  const [row] = await db
    .select()
    .from(composerDrafts)
    .where(ownedBy(organizationId, userId, postId));
  return row ?? null;
}

/** Replaces the member's draft (one per organization and post). */
export async function upsertDraft(
  db: Db,
  values: { organizationId: string; userId: string; postId: string | null },
  body: ComposerDraftBody,
  now: Date,
) {
  const [row] = await db
    .insert(composerDrafts)
    .values({ ...values, body, updatedAt: now })
    .onConflictDoUpdate({
      target: [composerDrafts.organizationId, composerDrafts.userId, composerDrafts.postId],
      set: { body, updatedAt: now },
    })
    .returning();
  return row!;
}

export async function deleteDraft(
  db: Db,
  organizationId: string,
  userId: string,
  postId: string | null,
) {
  await db.delete(composerDrafts).where(ownedBy(organizationId, userId, postId));
}

export type HashtagGroupRow = typeof hashtagGroups.$inferSelect;

export function listHashtagGroups(db: Db, organizationId: string) {
  return db
    .select()
    .from(hashtagGroups)
    .where(eq(hashtagGroups.organizationId, organizationId))
    .orderBy(asc(hashtagGroups.name), asc(hashtagGroups.id));
}

export async function insertHashtagGroup(
  db: Db,
  values: { organizationId: string; name: string; hashtags: string[] },
) {
  const [row] = await db.insert(hashtagGroups).values(values).returning();
  return row!;
}

/** The updated group; null when the organization has no such group. */
export async function updateHashtagGroup(
  db: Db,
  organizationId: string,
  id: string,
  values: { name: string; hashtags: string[]; updatedAt: Date },
) {
  const [row] = await db
    .update(hashtagGroups)
    .set(values)
    .where(and(eq(hashtagGroups.organizationId, organizationId), eq(hashtagGroups.id, id)))
    .returning();
  return row ?? null;
}

/** Whether a group was deleted. */
export async function deleteHashtagGroup(db: Db, organizationId: string, id: string) {
  const rows = await db
    .delete(hashtagGroups)
    .where(and(eq(hashtagGroups.organizationId, organizationId), eq(hashtagGroups.id, id)))
    .returning({ id: hashtagGroups.id });
  return rows.length > 0;
}
