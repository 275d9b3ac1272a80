import { and, asc, eq, sql } from 'drizzle-orm';
import type { ApprovalAction } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { reachablePost } from '../posts/posts.lookups.js';
import {
  members,
  organizations,
  postApprovalEvents,
  posts,
  rolePermissions,
  users,
} from '../../db/schema.js';

/**
 * Whether the organization asks members without post:approve to submit their posts, and of
 * which roles (empty: every member).
 */
export async function approvalSetting(
  db: Db,
  organizationId: string,
): Promise<{ required: boolean; roleIds: string[] }> {
  const [row] = await db
    .select({
      required: organizations.requirePostApproval,
      roleIds: organizations.postApprovalRoleIds,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return { required: row?.required ?? false, roleIds: row?.roleIds ?? [] };
}

/** The member's role in the organization (null when they have none or are not a member). */
export async function memberRoleId(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<string | null> {
  const [row] = await db
    .select({ roleId: members.roleId })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
  return row?.roleId ?? null;
}

export async function insertEvent(
  db: Db,
  event: {
    organizationId: string;
    postId: string;
    userId: string | null;
    /** A client deciding through an approval link, as the link names them. */
    guestName?: string | null;
    guestEmail?: string | null;
    action: ApprovalAction;
    reason?: string | null;
  },
) {
  await db.insert(postApprovalEvents).values({ ...event, reason: event.reason ?? null });
}

export async function eventsOfPost(db: Db, organizationId: string, postId: string) {
  return db
    .select({
      event: postApprovalEvents,
      user: { id: users.id, displayName: users.displayName },
    })
    .from(postApprovalEvents)
    .leftJoin(users, eq(users.id, postApprovalEvents.userId))
    .where(
      and(
        eq(postApprovalEvents.organizationId, organizationId),
        eq(postApprovalEvents.postId, postId),
      ),
    )
    .orderBy(asc(postApprovalEvents.createdAt), asc(postApprovalEvents.id));
}

/** The posts waiting for an approver, the soonest time first (posts without a time last). */
/** Waiting posts of the organization; `reachable`: only those on one of these accounts. */
const waiting = (organizationId: string, reachable: readonly string[] | null) =>
  and(
    eq(posts.organizationId, organizationId),
    eq(posts.status, 'pending_approval'),
    reachable ? reachablePost(organizationId, reachable) : undefined,
  );

export async function pendingPosts(
  db: Db,
  organizationId: string,
  limit: number,
  reachable: readonly string[] | null = null,
) {
  return db
    .select()
    .from(posts)
    .where(waiting(organizationId, reachable))
    .orderBy(sql`${posts.scheduledAt} asc nulls last`, asc(posts.createdAt))
    .limit(limit);
}

export async function countPending(
  db: Db,
  organizationId: string,
  reachable: readonly string[] | null = null,
): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(posts)
    .where(waiting(organizationId, reachable));
  return row?.count ?? 0;
}

export async function displayNameOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ displayName: users.displayName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row ? (row.displayName ?? row.email) : null;
}

/** Active members whose effective permissions include post:approve (role, narrowed at invite). */
export async function approverUserIds(db: Db, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: members.userId })
    .from(members)
    .innerJoin(
      rolePermissions,
      and(
        eq(rolePermissions.roleId, members.roleId),
        eq(rolePermissions.permission, 'post:approve'),
      ),
    )
    .where(
      and(
        eq(members.organizationId, organizationId),
        eq(members.status, 'ACTIVE'),
        sql`(${members.permissions} is null or 'post:approve' = any(${members.permissions}))`,
      ),
    );
  return rows.flatMap((row) => (row.userId ? [row.userId] : []));
}
