import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { members, organizations } from '../../db/schema/organizations.js';
import { postInternalComments } from '../../db/schema/posts.js';
import { postTargets } from '../../db/schema/publishing.js';
import { users } from '../../db/schema/users.js';

export type InternalCommentRow = typeof postInternalComments.$inferSelect;
export type StoredLinkTracking = typeof organizations.$inferInsert.linkTracking;

/** The post's accounts (its targets), every one, with the settings chosen for each. */
export function targetsOfPost(db: Db, organizationId: string, postId: string) {
  return db
    .select()
    .from(postTargets)
    .where(and(eq(postTargets.organizationId, organizationId), eq(postTargets.postId, postId)));
}

export function userNames(db: Db, userIds: string[]) {
  return db
    .select({ id: users.id, displayName: users.displayName, email: users.email })
    .from(users)
    .where(inArray(users.id, userIds));
}

/** Which of these users are active members of the organization. */
export async function activeMemberIds(db: Db, organizationId: string, userIds: string[]) {
  const rows = await db
    .select({ userId: members.userId })
    .from(members)
    .where(
      and(
        eq(members.organizationId, organizationId),
        eq(members.status, 'ACTIVE'),
        inArray(members.userId, userIds),
      ),
    );
  return rows.map((m) => m.userId);
}

/** The post's internal comments, oldest first. */
export function listInternalComments(db: Db, organizationId: string, postId: string) {
  return db
    .select()
    .from(postInternalComments)
    .where(
      and(
        eq(postInternalComments.organizationId, organizationId),
        eq(postInternalComments.postId, postId),
      ),
    )
    .orderBy(asc(postInternalComments.createdAt), asc(postInternalComments.id));
}

export async function insertInternalComment(
  db: Db,
  values: typeof postInternalComments.$inferInsert,
) {
  const [row] = await db.insert(postInternalComments).values(values).returning();
  return row!;
}

/** One comment of the post, locked until the transaction ends; null when there is none. */
export async function lockInternalComment(
  db: Db,
  organizationId: string,
  postId: string,
  commentId: string,
) {
  const [row] = await db
    .select()
    .from(postInternalComments)
    .where(
      and(
        eq(postInternalComments.organizationId, organizationId),
        eq(postInternalComments.postId, postId),
        eq(postInternalComments.id, commentId),
      ),
    )
    .for('update');
  return row ?? null;
}

export async function deleteInternalComment(db: Db, id: string) {
  await db.delete(postInternalComments).where(eq(postInternalComments.id, id));
}

/** The organization's stored link tracking (null when never saved); undefined: no organization. */
export async function findLinkTracking(db: Db, organizationId: string) {
  const [row] = await db
    .select({ linkTracking: organizations.linkTracking })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row ? { linkTracking: row.linkTracking } : undefined;
}

export async function saveLinkTracking(
  db: Db,
  organizationId: string,
  linkTracking: StoredLinkTracking,
) {
  await db.update(organizations).set({ linkTracking }).where(eq(organizations.id, organizationId));
}
