import { PERMISSION_NAMES, type CurrentMember } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { TtlCache } from '../../lib/ttl-cache.js';
import * as repo from './membership.repository.js';

/**
 * How long a member's loaded membership (role, permissions) is reused by the access check.
 * Every organization route loaded it (a query with two joins) before doing its own work. Every
 * state-changing request of this process clears the cache (`forget`), so a removal or a role
 * change here counts from the next request on; one made by another API process, within this time.
 */
export const MEMBERSHIP_CACHE_TTL_MS = 1000;

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

/** The accounts a member reaches, null for all: an Admin is never limited, whatever is stored. */
export function memberAccountIds(
  role: { isAdmin: boolean } | null,
  limited: boolean,
  accountIds: readonly string[],
): string[] | null {
  return limited && !role?.isAdmin ? [...accountIds] : null;
}

export interface MembershipContext {
  id: string;
  organizationId: string;
  organizationName: string;
  /** The organization's time zone (null: none set), for the zone that applies to the member. */
  organizationTimeZone: string | null;
  roleId: string | null;
  role: { id: string; name: string; isAdmin: boolean } | null;
  status: string;
  permissions: string[];
  /**
   * The connected accounts the member reaches (posting, inbox, comments, analytics); null: every
   * account of the organization — the default, and always for an Admin.
   */
  accountIds: string[] | null;
}

export function toMembershipContext(row: repo.MembershipRow): MembershipContext {
  return {
    id: row.member.id,
    organizationId: row.organization.id,
    organizationName: row.organization.name,
    organizationTimeZone: row.organization.defaultTimeZone,
    roleId: row.member.roleId,
    role: row.role,
    status: row.member.status,
    permissions: effectivePermissions(row.rolePermissions, row.member.permissions),
    accountIds: memberAccountIds(row.role, row.member.accountsLimited, row.accountIds),
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
    accountIds: m.accountIds,
  };
}

/** Active memberships as the access check asks for them, cached for MEMBERSHIP_CACHE_TTL_MS. */
export class MembershipCache {
  private readonly cache = new TtlCache<string, MembershipContext>(MEMBERSHIP_CACHE_TTL_MS, 10_000);

  constructor(private readonly db: Db) {}

  load(organizationId: string, userId: string): Promise<MembershipContext | null> {
    return this.cache.get(`${organizationId}:${userId}`, () =>
      loadMembership(this.db, organizationId, userId),
    );
  }

  /** Forgets every membership: the next request of each member reads it again. */
  forget(): void {
    this.cache.clear();
  }
}

/** The user's active memberships, every organization with its role. */
export const listActiveMembershipsOfUser = (db: Db, userId: string) =>
  repo.listActiveMembershipsOfUser(db, userId);
