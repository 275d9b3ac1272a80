import { and, eq, isNull } from 'drizzle-orm';
import type { ComposerDraftBody } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { composerDrafts } from '../../db/schema/composer.js';

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
