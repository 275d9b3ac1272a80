import { PERMISSION_NAMES, type CurrentMember } from '@herald/contract';
import type { Db } from '../../db/client.js';
import * as repo from './membership.repository.js';

/**
 * A member's effective permissions: the role's, narrowed by the set chosen at invitation.
 * Intersecting (rather than storing a copy) keeps a later narrowing of the role in force.
 */
export function effectivePermissions(
  rolePermissions: readonly string[],
  narrowed: readonly string[] | null,
): string[] {
  const allowed = new Set(rolePermissions);
  const chosen = narrowed ?? rolePermissions;
  return PERMISSION_NAMES.filter((p) => allowed.has(p) && chosen.includes(p));
}

export interface MembershipContext {
  id: string;
  organizationId: string;
  organizationName: string;
  roleId: string | null;
  role: { id: string; name: string; isAdmin: boolean } | null;
  status: string;
  permissions: string[];
}

export function toMembershipContext(row: repo.MembershipRow): MembershipContext {
  return {
    id: row.member.id,
    organizationId: row.organization.id,
    organizationName: row.organization.name,
    roleId: row.member.roleId,
    role: row.role,
    status: row.member.status,
    permissions: effectivePermissions(row.rolePermissions, row.member.permissions),
  };
}

export async function loadMembership(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<MembershipContext | null> {
  const row = await repo.findActiveMembership(db, organizationId, userId);
  return row ? toMembershipContext(row) : null;
}

export function toCurrentMemberDto(m: MembershipContext): CurrentMember {
  return {
    id: m.id,
    organizationId: m.organizationId,
    organization: { id: m.organizationId, name: m.organizationName },
    roleId: m.roleId,
    role: m.role ? { id: m.role.id, name: m.role.name } : null,
    status: m.status,
    permissions: m.permissions,
  };
}
