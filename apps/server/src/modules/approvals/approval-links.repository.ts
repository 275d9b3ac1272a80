import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { GuestDecision } from '@herald/contract';
import type { Db } from '../../db/client.js';
import {
  approvalLinkPosts,
  approvalLinks,
  organizations,
  postMedia,
  posts,
  users,
} from '../../db/schema.js';

export type ApprovalLinkRow = typeof approvalLinks.$inferSelect;
export type ApprovalLinkPostRow = typeof approvalLinkPosts.$inferSelect;
export type LinkedPostRow = typeof posts.$inferSelect;
export type LinkedMediaRow = typeof postMedia.$inferSelect;

export async function insertLink(
  db: Db,
  values: Omit<typeof approvalLinks.$inferInsert, 'id' | 'createdAt'>,
): Promise<ApprovalLinkRow> {
  const [row] = await db.insert(approvalLinks).values(values).returning();
  return row!;
}

export async function insertLinkPosts(
  db: Db,
  rows: Array<Omit<typeof approvalLinkPosts.$inferInsert, 'id'>>,
) {
  await db.insert(approvalLinkPosts).values(rows);
}

/** The organization's links, newest first; only those carrying `postId` when it is given. */
export async function listLinks(
  db: Db,
  organizationId: string,
  filter: { postId?: string },
  limit: number,
) {
  const carries = filter.postId
    ? sql`exists (select 1 from ${approvalLinkPosts} lp where lp.link_id = ${approvalLinks.id}
        and lp.post_id = ${filter.postId})`
    : undefined;
  return db
    .select({ link: approvalLinks, sender: { id: users.id, displayName: users.displayName } })
    .from(approvalLinks)
    .leftJoin(users, eq(users.id, approvalLinks.createdByUserId))
    .where(and(eq(approvalLinks.organizationId, organizationId), carries))
    .orderBy(desc(approvalLinks.createdAt), desc(approvalLinks.id))
    .limit(limit);
}
export type ListedLink = Awaited<ReturnType<typeof listLinks>>[number];

/** The posts of the links given, in their order in each link. */
export async function postsOfLinks(
  db: Db,
  organizationId: string,
  linkIds: string[],
): Promise<ApprovalLinkPostRow[]> {
  if (linkIds.length === 0) return [];
  return db
    .select()
    .from(approvalLinkPosts)
    .where(
      and(
        eq(approvalLinkPosts.organizationId, organizationId),
        inArray(approvalLinkPosts.linkId, linkIds),
      ),
    )
    .orderBy(asc(approvalLinkPosts.linkId), asc(approvalLinkPosts.position));
}

export async function findLink(db: Db, organizationId: string, linkId: string) {
  const [row] = await db
    .select({ link: approvalLinks, sender: { id: users.id, displayName: users.displayName } })
    .from(approvalLinks)
    .leftJoin(users, eq(users.id, approvalLinks.createdByUserId))
    .where(and(eq(approvalLinks.organizationId, organizationId), eq(approvalLinks.id, linkId)));
  return row ?? null;
}

/** Withdraws a link that is not withdrawn yet; null when it already was (or is not there). */
export async function revokeLink(
  db: Db,
  organizationId: string,
  linkId: string,
  by: { userId: string; at: Date },
): Promise<ApprovalLinkRow | null> {
  const [row] = await db
    .update(approvalLinks)
    .set({ revokedAt: by.at, revokedByUserId: by.userId })
    .where(
      and(
        eq(approvalLinks.organizationId, organizationId),
        eq(approvalLinks.id, linkId),
        isNull(approvalLinks.revokedAt),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * The link a token's hash names, with its organization's name and its sender's; `lock` holds the
 * link's row for the rest of the transaction, so two decisions through one link take turns.
 */
export async function findLinkByTokenHash(db: Db, tokenHash: string, lock = false) {
  const query = db
    .select({
      link: approvalLinks,
      organizationName: organizations.name,
      senderName: sql<string | null>`coalesce(${users.displayName}, ${users.email})`,
    })
    .from(approvalLinks)
    .innerJoin(organizations, eq(organizations.id, approvalLinks.organizationId))
    .leftJoin(users, eq(users.id, approvalLinks.createdByUserId))
    .where(eq(approvalLinks.tokenHash, tokenHash));
  const [row] = lock ? await query.for('update', { of: approvalLinks }) : await query;
  return row ?? null;
}

/** The organization's posts among `postIds` as they are now (deleted ones are missing). */
export async function postsByIds(
  db: Db,
  organizationId: string,
  postIds: string[],
): Promise<LinkedPostRow[]> {
  if (postIds.length === 0) return [];
  return db
    .select()
    .from(posts)
    .where(and(eq(posts.organizationId, organizationId), inArray(posts.id, postIds)));
}

/** Records the client's decision on one post of a link, unless it already has one. */
export async function recordDecision(
  db: Db,
  itemId: string,
  decision: { decision: GuestDecision; comment: string | null; at: Date },
): Promise<ApprovalLinkPostRow | null> {
  const [row] = await db
    .update(approvalLinkPosts)
    .set({ decision: decision.decision, comment: decision.comment, decidedAt: decision.at })
    .where(and(eq(approvalLinkPosts.id, itemId), isNull(approvalLinkPosts.decision)))
    .returning();
  return row ?? null;
}

/** One stored file of one of the organization's posts among `postIds`. */
export async function mediaOfPosts(
  db: Db,
  organizationId: string,
  postIds: string[],
  mediaId: string,
): Promise<LinkedMediaRow | null> {
  if (postIds.length === 0) return null;
  const [row] = await db
    .select()
    .from(postMedia)
    .where(
      and(
        eq(postMedia.organizationId, organizationId),
        inArray(postMedia.postId, postIds),
        eq(postMedia.id, mediaId),
      ),
    );
  return row ?? null;
}
