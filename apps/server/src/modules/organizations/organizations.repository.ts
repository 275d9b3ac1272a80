import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { members, organizations, roles, users } from '../../db/schema.js';

export type OrganizationRow = typeof organizations.$inferSelect;

/** Holds the organization's row until the transaction ends (see organization-lock.ts). */
export async function lockOrganization(db: Db, organizationId: string) {
  await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('update');
}

export function insertOrganization(db: Db, name: string, ownerUserId: string) {
  return db
    .insert(organizations)
    .values({ name, ownerUserId })
    .returning()
    .then((r) => r[0]!);
}

export async function findOrganization(db: Db, id: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  return row ?? null;
}

export async function updateOrganization(
  db: Db,
  id: string,
  changes: Pick<
    typeof organizations.$inferInsert,
    'defaultTimeZone' | 'requirePostApproval' | 'postApprovalRoleIds'
  >,
) {
  const [row] = await db
    .update(organizations)
    .set(changes)
    .where(eq(organizations.id, id))
    .returning();
  return row ?? null;
}

/** Which of these role ids are roles of the organization. */
export async function rolesOfOrganization(db: Db, organizationId: string, roleIds: string[]) {
  if (roleIds.length === 0) return [];
  const rows = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.organizationId, organizationId), inArray(roles.id, roleIds)));
  return rows.map((r) => r.id);
}

export function insertActiveMember(
  db: Db,
  values: { organizationId: string; userId: string; email: string; roleId: string },
) {
  return db
    .insert(members)
    .values({ ...values, status: 'ACTIVE', joinedAt: new Date() })
    .returning()
    .then((r) => r[0]!);
}

/** An active member of the organization holding its Admin role, with their user and name. */
export async function findActiveAdmin(db: Db, organizationId: string, memberId: string) {
  const [row] = await db
    .select({ userId: members.userId, email: members.email, name: users.displayName })
    .from(members)
    .innerJoin(roles, eq(roles.id, members.roleId))
    .leftJoin(users, eq(users.id, members.userId))
    .where(
      and(
        eq(members.id, memberId),
        eq(members.organizationId, organizationId),
        eq(members.status, 'ACTIVE'),
        eq(roles.isAdmin, true),
      ),
    );
  return row ?? null;
}

export async function setOwner(db: Db, organizationId: string, ownerUserId: string) {
  const [row] = await db
    .update(organizations)
    .set({ ownerUserId })
    .where(eq(organizations.id, organizationId))
    .returning();
  return row!;
}

/** The organization's logo key, read under its row's lock (the caller's transaction). */
export async function lockedLogoKey(db: Db, id: string) {
  const [row] = await db
    .select({ key: organizations.brandLogoKey })
    .from(organizations)
    .where(eq(organizations.id, id))
    .for('update');
  return row ? row.key : undefined;
}

export async function updateBranding(
  db: Db,
  id: string,
  changes: Pick<typeof organizations.$inferInsert, 'brandLogoKey' | 'brandColor'>,
) {
  const [row] = await db
    .update(organizations)
    .set(changes)
    .where(eq(organizations.id, id))
    .returning();
  return row ?? null;
}
