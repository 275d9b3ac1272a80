import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { memberAccounts, members, organizations, rolePermissions, roles } from '../../db/schema.js';

/** A membership with its organization, role and the role's permissions, in one query. */
const membershipSelection = {
  member: members,
  organization: {
    id: organizations.id,
    name: organizations.name,
    defaultTimeZone: organizations.defaultTimeZone,
    requirePostApproval: organizations.requirePostApproval,
    postApprovalRoleIds: organizations.postApprovalRoleIds,
    ownerUserId: organizations.ownerUserId,
    createdAt: organizations.createdAt,
  },
  role: { id: roles.id, name: roles.name, isAdmin: roles.isAdmin },
  rolePermissions: sql<
    string[]
  >`coalesce((select array_agg(${rolePermissions.permission}) from ${rolePermissions} where ${rolePermissions.roleId} = ${members.roleId}), '{}')`,
  /** The accounts the member is limited to (meaningful when members.accounts_limited). */
  accountIds: sql<
    string[]
  >`coalesce((select array_agg(${memberAccounts.integrationId}) from ${memberAccounts} where ${memberAccounts.memberId} = ${members.id}), '{}')`,
};

export async function findActiveMembership(db: Db, organizationId: string, userId: string) {
  const [row] = await db
    .select(membershipSelection)
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .leftJoin(roles, eq(roles.id, members.roleId))
    .where(
      and(
        eq(members.organizationId, organizationId),
        eq(members.userId, userId),
        eq(members.status, 'ACTIVE'),
      ),
    );
  return row ?? null;
}

export async function listActiveMembershipsOfUser(db: Db, userId: string) {
  return db
    .select(membershipSelection)
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .leftJoin(roles, eq(roles.id, members.roleId))
    .where(and(eq(members.userId, userId), eq(members.status, 'ACTIVE')))
    .orderBy(organizations.name);
}

export type MembershipRow = NonNullable<Awaited<ReturnType<typeof findActiveMembership>>>;

/** Role permissions of several roles at once (for member lists). */
export async function permissionsOfRoles(db: Db, roleIds: string[]) {
  if (roleIds.length === 0) return new Map<string, string[]>();
  const rows = await db
    .select()
    .from(rolePermissions)
    .where(inArray(rolePermissions.roleId, roleIds));
  const map = new Map<string, string[]>();
  for (const r of rows) map.set(r.roleId, [...(map.get(r.roleId) ?? []), r.permission]);
  return map;
}
