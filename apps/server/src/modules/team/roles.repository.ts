import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { announceAccessChange } from '../../identity/access-changes.js';
import { members, organizations, rolePermissions, roles } from '../../db/schema.js';

export type RoleRow = typeof roles.$inferSelect;

export async function findRole(db: Db, organizationId: string, roleId: string) {
  const [row] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.organizationId, organizationId), eq(roles.id, roleId)));
  return row ?? null;
}

export async function findRoleByName(db: Db, organizationId: string, name: string) {
  const [row] = await db
    .select()
    .from(roles)
    .where(
      and(
        eq(roles.organizationId, organizationId),
        sql`lower(${roles.name}) = ${name.toLowerCase()}`,
      ),
    );
  return row ?? null;
}

export function listRoles(db: Db, organizationId: string) {
  return db
    .select()
    .from(roles)
    .where(eq(roles.organizationId, organizationId))
    .orderBy(asc(roles.createdAt), asc(roles.name));
}

export async function rolePermissionNames(db: Db, roleId: string): Promise<string[]> {
  const rows = await db
    .select({ permission: rolePermissions.permission })
    .from(rolePermissions)
    .where(eq(rolePermissions.roleId, roleId));
  return rows.map((r) => r.permission);
}

/** Members holding each role (pending invitations included: they will hold it). */
export async function countMembersByRole(db: Db, organizationId: string) {
  const rows = await db
    .select({ roleId: members.roleId, n: count() })
    .from(members)
    .where(
      and(
        eq(members.organizationId, organizationId),
        inArray(members.status, ['ACTIVE', 'PENDING']),
      ),
    )
    .groupBy(members.roleId);
  return new Map(rows.filter((r) => r.roleId).map((r) => [r.roleId!, r.n]));
}

export async function insertRole(
  db: Db,
  values: { organizationId: string; name: string; description: string | null; isAdmin?: boolean },
  permissions: readonly string[],
) {
  const [role] = await db.insert(roles).values(values).returning();
  if (permissions.length) {
    await db
      .insert(rolePermissions)
      .values(permissions.map((permission) => ({ roleId: role!.id, permission })));
  }
  return role!;
}

export async function updateRole(
  db: Db,
  organizationId: string,
  roleId: string,
  values: { name: string; description: string | null },
  permissions: readonly string[],
) {
  const [role] = await db
    .update(roles)
    .set(values)
    .where(and(eq(roles.organizationId, organizationId), eq(roles.id, roleId)))
    .returning();
  await db.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
  await db
    .insert(rolePermissions)
    .values(permissions.map((permission) => ({ roleId, permission })));
  // Streams of the organization's members read their permissions again.
  await announceAccessChange(db, { organizationId });
  return role!;
}

/**
 * Deletes the role and takes it out of the organization's approval roles (none left: approval,
 * when on, is again for every member, as Settings then shows).
 */
export async function deleteRole(db: Db, organizationId: string, roleId: string) {
  await db.delete(roles).where(and(eq(roles.organizationId, organizationId), eq(roles.id, roleId)));
  await db
    .update(organizations)
    .set({
      postApprovalRoleIds: sql`nullif(array_remove(${organizations.postApprovalRoleIds}, ${roleId}::uuid), '{}')`,
    })
    .where(
      and(
        eq(organizations.id, organizationId),
        sql`${roleId}::uuid = any(${organizations.postApprovalRoleIds})`,
      ),
    );
}

export async function nameTakenByAnother(
  db: Db,
  organizationId: string,
  name: string,
  exceptRoleId?: string,
) {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.organizationId, organizationId),
        sql`lower(${roles.name}) = ${name.toLowerCase()}`,
        exceptRoleId ? ne(roles.id, exceptRoleId) : undefined,
      ),
    );
  return Boolean(row);
}
