import { DEFAULT_ROLES, ORGANIZATION_ROLES_MAX, PERMISSIONS, type Role } from '@herald/contract';
import type { z } from 'zod';
import type { SaveRoleRequestSchema } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { assertCanGrant } from './grants.js';
import type { MembershipContext } from './membership.js';
import { permissionsOfRoles } from './membership.repository.js';
import { lockOrganization } from '../organizations/organization-lock.js';
import * as repo from './roles.repository.js';

type SaveRole = z.output<typeof SaveRoleRequestSchema>;

const DEFAULT_ROLE_DESCRIPTIONS: Record<string, string> = {
  Admin: 'Full access to everything in the organization.',
  SocialMediaManager: 'Creates and edits posts, answers messages and reads analytics.',
  ContentCreator: 'Creates and edits posts.',
  CustomerSupport: 'Reads and answers messages.',
};

/** The four roles every organization starts with (docs/product.md#roles-and-permissions), created inside its transaction. */
export async function createDefaultRoles(tx: Db, organizationId: string) {
  const created: Record<string, repo.RoleRow> = {};
  for (const [name, permissions] of Object.entries(DEFAULT_ROLES)) {
    created[name] = await repo.insertRole(
      tx,
      {
        organizationId,
        name,
        description: DEFAULT_ROLE_DESCRIPTIONS[name] ?? null,
        isAdmin: name === 'Admin',
      },
      permissions,
    );
  }
  return created;
}

const permissionDto = (name: string) => ({
  id: name,
  name,
  description: PERMISSIONS.find((p) => p.name === name)?.label ?? name,
});

export function listPermissions() {
  return PERMISSIONS.map((p) => permissionDto(p.name));
}

function toRoleDto(role: repo.RoleRow, permissions: string[], memberCount: number): Role {
  const order = PERMISSIONS.map((p) => p.name as string);
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    isAdmin: role.isAdmin,
    memberCount,
    permissions: [...permissions]
      .sort((a, b) => order.indexOf(a) - order.indexOf(b))
      .map(permissionDto),
  };
}

export async function listRoles(db: Db, organizationId: string): Promise<Role[]> {
  const rows = await repo.listRoles(db, organizationId);
  const [permissions, counts] = await Promise.all([
    permissionsOfRoles(
      db,
      rows.map((r) => r.id),
    ),
    repo.countMembersByRole(db, organizationId),
  ]);
  return rows.map((r) => toRoleDto(r, permissions.get(r.id) ?? [], counts.get(r.id) ?? 0));
}

async function getEditableRole(db: Db, organizationId: string, roleId: string) {
  const role = await repo.findRole(db, organizationId, roleId);
  if (!role) throw new AppError('NOT_FOUND', 'This role does not exist in this organization.');
  if (role.isAdmin) {
    throw new AppError(
      'CONFLICT',
      'The Admin role always has every permission and cannot be changed or deleted.',
    );
  }
  return role;
}

const nameTaken = (name: string) =>
  new AppError('CONFLICT', `A role named "${name}" already exists in this organization.`);

/** A new custom role, holding no permission its creator lacks. */
export async function createRole(db: Db, actor: MembershipContext, input: SaveRole): Promise<Role> {
  const organizationId = actor.organizationId;
  assertCanGrant(actor, null, input.permissionIds);
  return db.transaction(async (tx) => {
    // Counted with the organization's row locked: concurrent creates cannot both take the last place.
    await lockOrganization(tx, organizationId);
    if ((await repo.listRoles(tx, organizationId)).length >= ORGANIZATION_ROLES_MAX)
      throw new AppError(
        'CONFLICT',
        `An organization can have at most ${ORGANIZATION_ROLES_MAX} roles; delete one you no longer use.`,
      );
    if (await repo.nameTakenByAnother(tx, organizationId, input.name)) throw nameTaken(input.name);
    const permissions = [...new Set(input.permissionIds)];
    const role = await repo.insertRole(
      tx,
      { organizationId, name: input.name, description: input.description },
      permissions,
    );
    return toRoleDto(role, permissions, 0);
  });
}

/**
 * Renames a custom role or changes its permissions. Its new permissions stay within the
 * editor's, and no one but an Admin edits the role they hold themselves.
 */
export async function updateRole(
  db: Db,
  actor: MembershipContext,
  roleId: string,
  input: SaveRole,
): Promise<Role> {
  const organizationId = actor.organizationId;
  if (actor.roleId === roleId && !actor.role?.isAdmin) {
    throw new AppError(
      'FORBIDDEN',
      'You cannot change the role you hold yourself. Ask an Admin of this organization.',
    );
  }
  assertCanGrant(actor, null, input.permissionIds);
  return db.transaction(async (tx) => {
    await getEditableRole(tx, organizationId, roleId);
    if (await repo.nameTakenByAnother(tx, organizationId, input.name, roleId))
      throw nameTaken(input.name);
    const permissions = [...new Set(input.permissionIds)];
    const role = await repo.updateRole(
      tx,
      organizationId,
      roleId,
      { name: input.name, description: input.description },
      permissions,
    );
    const counts = await repo.countMembersByRole(tx, organizationId);
    return toRoleDto(role, permissions, counts.get(roleId) ?? 0);
  });
}

export async function deleteRole(db: Db, organizationId: string, roleId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await getEditableRole(tx, organizationId, roleId);
    const counts = await repo.countMembersByRole(tx, organizationId);
    if ((counts.get(roleId) ?? 0) > 0)
      throw new AppError('CONFLICT', 'Cannot delete role with assigned members');
    await repo.deleteRole(tx, organizationId, roleId);
  });
}

/** The organization's role with this id, or null. */
export const findRole = (db: Db, organizationId: string, roleId: string) =>
  repo.findRole(db, organizationId, roleId);

/** The organization's role with this name, or null. */
export const findRoleByName = (db: Db, organizationId: string, name: string) =>
  repo.findRoleByName(db, organizationId, name);

/** The names of the role's permissions. */
export const rolePermissionNames = (db: Db, roleId: string) => repo.rolePermissionNames(db, roleId);
