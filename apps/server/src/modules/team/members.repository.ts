import { and, count, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { announceAccessChange } from '../../identity/access-changes.js';
import { integrations, memberAccounts, members, roles, users } from '../../db/schema.js';

const visible = (organizationId: string) =>
  and(eq(members.organizationId, organizationId), ne(members.status, 'DECLINED'));

export async function listMembers(
  db: Db,
  organizationId: string,
  opts: { page: number; pageSize: number; search?: string; memberId?: string },
) {
  const term = opts.search ? `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    visible(organizationId),
    term ? or(ilike(members.email, term), ilike(users.displayName, term)) : undefined,
    opts.memberId ? eq(members.id, opts.memberId) : undefined,
  );
  const rows = await db
    .select({
      member: members,
      role: { id: roles.id, name: roles.name, isAdmin: roles.isAdmin },
      accountIds: sql<
        string[]
      >`coalesce((select array_agg(${memberAccounts.integrationId}) from ${memberAccounts} where ${memberAccounts.memberId} = ${members.id}), '{}')`,
      user: { id: users.id, displayName: users.displayName, avatarUrl: users.avatarUrl },
    })
    .from(members)
    .leftJoin(roles, eq(roles.id, members.roleId))
    .leftJoin(users, eq(users.id, members.userId))
    .where(where)
    .orderBy(
      sql`${members.status} = 'ACTIVE' desc`,
      desc(members.joinedAt),
      desc(members.createdAt),
    )
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  const [total] = await db
    .select({ n: count() })
    .from(members)
    .leftJoin(users, eq(users.id, members.userId))
    .where(where);
  return { rows, totalCount: total?.n ?? 0 };
}

export async function findMember(db: Db, organizationId: string, memberId: string) {
  const [row] = await db
    .select()
    .from(members)
    .where(and(visible(organizationId), eq(members.id, memberId)));
  return row ?? null;
}

export async function countActiveAdmins(db: Db, organizationId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(members)
    .innerJoin(roles, eq(roles.id, members.roleId))
    .where(
      and(
        eq(members.organizationId, organizationId),
        eq(members.status, 'ACTIVE'),
        eq(roles.isAdmin, true),
      ),
    );
  return row?.n ?? 0;
}

export async function updateMemberRole(
  db: Db,
  organizationId: string,
  memberId: string,
  roleId: string,
  permissions: string[] | null,
) {
  const [row] = await db
    .update(members)
    .set({ roleId, permissions })
    .where(and(eq(members.organizationId, organizationId), eq(members.id, memberId)))
    .returning();
  // The member's open streams read their permissions again (one that lost dm:view closes).
  if (row?.userId) await announceAccessChange(db, { userId: row.userId, organizationId });
  return row!;
}

export async function deleteMember(db: Db, organizationId: string, memberId: string) {
  const [row] = await db
    .delete(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.id, memberId)))
    .returning({ userId: members.userId });
  // The person's open streams of this organization close (on every API process).
  if (row?.userId) await announceAccessChange(db, { userId: row.userId, organizationId });
}

/** Which of `ids` are accounts connected to the organization. */
export async function connectedAccountIds(db: Db, organizationId: string, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(eq(integrations.organizationId, organizationId), inArray(integrations.id, ids)));
  return rows.map((r) => r.id);
}

/** Limits a member to `integrationIds`, or (null) gives every account back. */
export async function setMemberAccounts(
  db: Db,
  organizationId: string,
  member: { id: string; userId: string | null },
  integrationIds: string[] | null,
) {
  await db
    .update(members)
    .set({ accountsLimited: integrationIds !== null })
    .where(and(eq(members.organizationId, organizationId), eq(members.id, member.id)));
  await db.delete(memberAccounts).where(eq(memberAccounts.memberId, member.id));
  if (integrationIds?.length)
    await db.insert(memberAccounts).values(
      integrationIds.map((integrationId) => ({
        memberId: member.id,
        integrationId,
        organizationId,
      })),
    );
  // The member's open streams read their access again (events of other accounts stop).
  if (member.userId) await announceAccessChange(db, { userId: member.userId, organizationId });
}

/**
 * A member limited to some accounts who connects an account works with it at once: it joins
 * their accounts (nothing changes for a member who reaches every account).
 */
export async function reachConnectedAccount(
  db: Db,
  organizationId: string,
  userId: string,
  integrationId: string,
) {
  const [member] = await db
    .select({ id: members.id })
    .from(members)
    .where(
      and(
        eq(members.organizationId, organizationId),
        eq(members.userId, userId),
        eq(members.accountsLimited, true),
      ),
    );
  if (!member) return;
  const added = await db
    .insert(memberAccounts)
    .values({ memberId: member.id, integrationId, organizationId })
    .onConflictDoNothing()
    .returning({ memberId: memberAccounts.memberId });
  if (added.length > 0) await announceAccessChange(db, { userId, organizationId });
}
