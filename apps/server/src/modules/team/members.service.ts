import { webUrlOrNull, type Member } from '@herald/contract';
import { lockOrganization } from '../organizations/organization-lock.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { activeAdminUserIds, recordNotification } from '../notifications/notifications.service.js';
import { clearCurrentOrganizationIf, type UserRow } from '../users/users.service.js';
import { assertCanGrant, assertNotSelf } from './grants.js';
import { effectivePermissions, memberAccountIds, type MembershipContext } from './membership.js';
import { permissionsOfRoles } from './membership.repository.js';
import * as repo from './members.repository.js';
import * as roles from './roles.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
type ListedRow = Awaited<ReturnType<typeof repo.listMembers>>['rows'][number];

function toMemberDto(row: ListedRow, rolePermissions: string[]): Member {
  const m = row.member;
  return {
    id: m.id,
    email: m.email,
    status: m.status === 'DECLINED' ? 'INACTIVE' : m.status,
    roleId: m.roleId,
    role: row.role && { id: row.role.id, name: row.role.name },
    permissions: effectivePermissions(rolePermissions, m.permissions),
    accountIds: memberAccountIds(row.role, m.accountsLimited, row.accountIds),
    user: row.user && { ...row.user, avatarUrl: webUrlOrNull(row.user.avatarUrl) },
    joinedAt: iso(m.joinedAt),
    invitedAt: iso(m.invitedAt),
    organizationId: m.organizationId,
  };
}

export async function listMembers(
  db: Db,
  organizationId: string,
  query: { page: number; pageSize: number; search?: string },
) {
  const { rows, totalCount } = await repo.listMembers(db, organizationId, query);
  const perms = await permissionsOfRoles(db, [
    ...new Set(rows.map((r) => r.member.roleId).filter((id): id is string => !!id)),
  ]);
  return {
    members: rows.map((r) =>
      toMemberDto(r, r.member.roleId ? (perms.get(r.member.roleId) ?? []) : []),
    ),
    meta: { page: query.page, pageSize: query.pageSize, totalCount },
  };
}

const lastAdmin = () =>
  new AppError(
    'CONFLICT',
    'An organization needs at least one Admin. Make another member Admin first.',
  );

/**
 * Checks that narrowed permissions stay within the role. Returns what to store: null when the
 * role's own set is meant (no narrowing).
 */
export function narrowPermissions(
  role: { name: string; isAdmin: boolean },
  rolePermissions: string[],
  chosen: string[] | undefined,
): string[] | null {
  if (!chosen) return null;
  // An Admin always holds every permission: a narrowed Admin would count as one yet manage nothing.
  if (role.isAdmin && chosen.length < rolePermissions.length) {
    throw new AppError(
      'VALIDATION_FAILED',
      'The Admin role always has every permission; choose another role to give fewer.',
    );
  }
  const outside = chosen.filter((p) => !rolePermissions.includes(p));
  if (outside.length) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Permissions can only narrow the role's defaults: ${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} not part of ${role.name}.`,
    );
  }
  const unique = [...new Set(chosen)];
  return unique.length === rolePermissions.length ? null : unique;
}

/**
 * Gives a member another role (and optionally a narrower set of its permissions). The caller
 * changes someone else, grants no more than they hold, and only an Admin gives or takes the
 * Admin role.
 */
export async function changeMemberRole(
  db: Db,
  actor: MembershipContext,
  memberId: string,
  input: { roleId: string; permissions?: string[] },
) {
  const organizationId = actor.organizationId;
  assertNotSelf(actor, memberId);
  return db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const member = await repo.findMember(tx, organizationId, memberId);
    if (!member)
      throw new AppError('NOT_FOUND', 'This member does not exist in this organization.');
    const role = await roles.findRole(tx, organizationId, input.roleId);
    if (!role) throw new AppError('VALIDATION_FAILED', 'Selected role is invalid');
    const rolePermissions = await roles.rolePermissionNames(tx, role.id);
    const narrowed = narrowPermissions(role, rolePermissions, input.permissions);
    assertCanGrant(actor, role, narrowed ?? rolePermissions);
    const current = member.roleId ? await roles.findRole(tx, organizationId, member.roleId) : null;
    if (current?.isAdmin && !actor.role?.isAdmin) {
      throw new AppError('FORBIDDEN', "Only an Admin can change an Admin's role.");
    }
    if (
      current?.isAdmin &&
      !role.isAdmin &&
      member.status === 'ACTIVE' &&
      (await repo.countActiveAdmins(tx, organizationId)) <= 1
    ) {
      throw lastAdmin();
    }
    await repo.updateMemberRole(tx, organizationId, memberId, role.id, narrowed);
    const { rows } = await repo.listMembers(tx, organizationId, { page: 1, pageSize: 1, memberId });
    return toMemberDto(rows[0]!, rolePermissions);
  });
}

/**
 * Limits a member to some connected accounts of the organization, or (null) gives every account
 * back. An Admin is never limited, and a limited caller hands out no account beyond their own.
 */
export async function setMemberAccounts(
  db: Db,
  actor: MembershipContext,
  memberId: string,
  integrationIds: string[] | null,
) {
  const organizationId = actor.organizationId;
  if (actor.id === memberId)
    throw new AppError(
      'FORBIDDEN',
      'You cannot change which accounts you reach yourself. Ask an Admin of this organization.',
    );
  const chosen = integrationIds && [...new Set(integrationIds)];
  if (actor.accountIds !== null) {
    const mine = new Set(actor.accountIds);
    if (!chosen || chosen.some((id) => !mine.has(id)))
      throw new AppError(
        'FORBIDDEN',
        'You can only give a member accounts you have access to yourself. Ask an Admin.',
      );
  }
  return db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const member = await repo.findMember(tx, organizationId, memberId);
    if (!member)
      throw new AppError('NOT_FOUND', 'This member does not exist in this organization.');
    const role = member.roleId ? await roles.findRole(tx, organizationId, member.roleId) : null;
    if (role?.isAdmin && chosen)
      throw new AppError(
        'VALIDATION_FAILED',
        'An Admin always has access to every account. Give the member another role first to limit their accounts.',
      );
    if (chosen) {
      const connected = new Set(await repo.connectedAccountIds(tx, organizationId, chosen));
      const unknown = chosen.filter((id) => !connected.has(id));
      if (unknown.length)
        throw new AppError(
          'VALIDATION_FAILED',
          `${unknown.length === 1 ? 'One of the chosen accounts is' : `${unknown.length} of the chosen accounts are`} not connected to this organization. Refresh the page and choose again.`,
        );
    }
    await repo.setMemberAccounts(tx, organizationId, member, chosen);
    const { rows } = await repo.listMembers(tx, organizationId, { page: 1, pageSize: 1, memberId });
    const row = rows[0]!;
    const perms = row.member.roleId ? await roles.rolePermissionNames(tx, row.member.roleId) : [];
    return toMemberDto(row, perms);
  });
}

/**
 * Removes a member or withdraws an invitation; a member may also remove themselves (leave).
 * The organization's admins hear when an active member leaves or is removed.
 */
export async function removeMember(
  db: Db,
  actor: { user: UserRow; membership: MembershipContext },
  memberId: string,
) {
  const organizationId = actor.membership.organizationId;
  await db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const member = await repo.findMember(tx, organizationId, memberId);
    if (!member)
      throw new AppError('NOT_FOUND', 'This member does not exist in this organization.');
    const role = member.roleId ? await roles.findRole(tx, organizationId, member.roleId) : null;
    if (
      role?.isAdmin &&
      member.status === 'ACTIVE' &&
      (await repo.countActiveAdmins(tx, organizationId)) <= 1
    ) {
      throw lastAdmin();
    }
    const { rows } = await repo.listMembers(tx, organizationId, { page: 1, pageSize: 1, memberId });
    const displayName = rows[0]?.user?.displayName;
    await repo.deleteMember(tx, organizationId, memberId);
    if (member.userId) await clearCurrentOrganizationIf(tx, member.userId, organizationId);
    if (member.status !== 'ACTIVE') return;
    const name = displayName ? `${displayName} (${member.email})` : member.email;
    const orgName = actor.membership.organizationName;
    const leaving = actor.membership.id === memberId;
    const admins = await activeAdminUserIds(tx, organizationId);
    await recordNotification(
      tx,
      organizationId,
      { userIds: admins.filter((id) => id !== actor.user.id) },
      {
        type: 'ORGANIZATION_INVITE',
        priority: 'LOW',
        message: leaving
          ? `${name} left ${orgName}.`
          : `${name} was removed from ${orgName} by ${actor.user.displayName ?? actor.user.email}.`,
      },
    );
  });
}

/** The account a member connects joins their accounts when they are limited to some. */
export const reachConnectedAccount = (
  db: Db,
  organizationId: string,
  userId: string,
  integrationId: string,
) => repo.reachConnectedAccount(db, organizationId, userId, integrationId);
