import type {
  MyOrganization,
  Organization,
  OrganizationBranding,
  UpdateOrganizationRequest,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { listActiveMembershipsOfUser, loadMembership } from '../team/membership.js';
import { createDefaultRoles } from '../team/roles.service.js';
import { setCurrentOrganization, type UserRow } from '../users/users.service.js';
import { dropCoverageChoice, withCoverageNotices } from '../billing/billing.service.js';
import { requireOrganizationAllowance } from '../billing/entitlements.js';
import * as repo from './organizations.repository.js';

/** Turns a stored file's key into a URL anyone holding it may load (the media store's signed URLs). */
export type SignMediaUrl = (key: string) => string;

/** The organization's branding with its logo as a signed URL (null without a signer). */
export const brandingOf = (
  o: Pick<repo.OrganizationRow, 'brandLogoKey' | 'brandColor'>,
  sign: SignMediaUrl | null,
): OrganizationBranding => ({
  logoUrl: o.brandLogoKey && sign ? sign(o.brandLogoKey) : null,
  color: o.brandColor,
});

/**
 * The API's organization. `sign` makes the logo's URL; callers that only read the name (the
 * dashboard) pass none and get no URL.
 */
export const toOrganizationDto = (
  o: repo.OrganizationRow,
  sign: SignMediaUrl | null = null,
): Organization => ({
  id: o.id,
  name: o.name,
  defaultTimeZone: o.defaultTimeZone,
  requirePostApproval: o.requirePostApproval,
  postApprovalRoleIds: o.postApprovalRoleIds ?? [],
  branding: brandingOf(o, sign),
  ownerUserId: o.ownerUserId,
  createdAt: o.createdAt.toISOString(),
});

/**
 * Creates an organization with the four default roles; the creator joins as its Admin and it
 * becomes their current organization. One transaction: no organization without its roles. Its
 * creator owns it: their plan covers it when it has room, or it is refused
 * (docs/product.md#billing-groups).
 */
export async function createOrganization(
  db: Db,
  user: UserRow,
  name: string,
): Promise<Organization> {
  return db.transaction(async (tx) => {
    await requireOrganizationAllowance(tx, user.id);
    // Its owner's plan covers it from the start; its admins (the creator) are told so.
    const org = await withCoverageNotices(tx, [user.id], async () => {
      const created = await repo.insertOrganization(tx, name, user.id);
      const roles = await createDefaultRoles(tx, created.id);
      await repo.insertActiveMember(tx, {
        organizationId: created.id,
        userId: user.id,
        email: user.email,
        roleId: roles.Admin!.id,
      });
      return created;
    });
    await setCurrentOrganization(tx, user.id, org.id);
    return toOrganizationDto(org);
  });
}

/**
 * The owner hands the organization to another of its active Admins. It leaves the old owner's
 * billing group at once (docs/product.md#billing-groups): the organizations whose coverage this
 * ends or starts are told, and a paying organization takes its subscription along.
 */
export async function transferOwnership(
  db: Db,
  organizationId: string,
  caller: UserRow,
  memberId: string,
  sign: SignMediaUrl | null = null,
): Promise<Organization> {
  return db.transaction(async (tx) => {
    await repo.lockOrganization(tx, organizationId);
    const org = await repo.findOrganization(tx, organizationId);
    if (!org) throw new AppError('NOT_FOUND', 'This organization does not exist.');
    if (org.ownerUserId !== caller.id) {
      throw new AppError('FORBIDDEN', `Only the owner of ${org.name} can transfer its ownership.`);
    }
    const heir = await repo.findActiveAdmin(tx, organizationId, memberId);
    if (!heir?.userId) {
      throw new AppError(
        'VALIDATION_FAILED',
        'Choose an active Admin of this organization as its new owner.',
      );
    }
    if (heir.userId === caller.id) {
      throw new AppError('VALIDATION_FAILED', 'You already own this organization.');
    }
    const newOwner = heir.userId;
    const updated = await withCoverageNotices(
      tx,
      [caller.id, newOwner],
      async () => {
        // A choice of covered organizations is the old owner's: it does not travel.
        await dropCoverageChoice(tx, organizationId);
        return repo.setOwner(tx, organizationId, newOwner);
      },
      `${org.name} now belongs to ${heir.name ?? heir.email}`,
    );
    return toOrganizationDto(updated, sign);
  });
}

export async function getOrganization(
  db: Db,
  organizationId: string,
  sign: SignMediaUrl | null = null,
): Promise<Organization> {
  const org = await repo.findOrganization(db, organizationId);
  if (!org) throw new AppError('NOT_FOUND', 'This organization does not exist.');
  return toOrganizationDto(org, sign);
}

/**
 * Sets (or, with null, clears) the organization default time zone that members without a zone
 * of their own see times in, whether posts need approval and for which roles (roles of this
 * organization only; none chosen is stored as null: every member). The route has already checked
 * org:manage.
 */
export async function updateOrganization(
  db: Db,
  organizationId: string,
  changes: UpdateOrganizationRequest,
  sign: SignMediaUrl | null = null,
): Promise<Organization> {
  const roleIds = changes.postApprovalRoleIds ? [...new Set(changes.postApprovalRoleIds)] : null;
  if (roleIds && roleIds.length > 0) {
    const known = new Set(await repo.rolesOfOrganization(db, organizationId, roleIds));
    if (roleIds.some((id) => !known.has(id))) {
      throw new AppError('VALIDATION_FAILED', 'Choose roles of this organization.');
    }
  }
  const org = await repo.updateOrganization(db, organizationId, {
    ...(changes.defaultTimeZone !== undefined ? { defaultTimeZone: changes.defaultTimeZone } : {}),
    ...(changes.requirePostApproval !== undefined
      ? { requirePostApproval: changes.requirePostApproval }
      : {}),
    ...(changes.postApprovalRoleIds !== undefined
      ? { postApprovalRoleIds: roleIds && roleIds.length > 0 ? roleIds : null }
      : {}),
  });
  if (!org) throw new AppError('NOT_FOUND', 'This organization does not exist.');
  return toOrganizationDto(org, sign);
}

export async function listMyOrganizations(db: Db, user: UserRow): Promise<MyOrganization[]> {
  const rows = await listActiveMembershipsOfUser(db, user.id);
  const current = user.currentOrganizationId ?? rows[0]?.organization.id;
  return rows.map((r) => ({
    id: r.organization.id,
    name: r.organization.name,
    defaultTimeZone: r.organization.defaultTimeZone,
    requirePostApproval: r.organization.requirePostApproval,
    postApprovalRoleIds: r.organization.postApprovalRoleIds ?? [],
    ownerUserId: r.organization.ownerUserId,
    createdAt: r.organization.createdAt.toISOString(),
    memberId: r.member.id,
    role: r.role ? { id: r.role.id, name: r.role.name } : null,
    isCurrent: r.organization.id === current,
  }));
}

/** Remembers the organization the user switched to, so that sign-in returns there. */
export async function switchOrganization(db: Db, user: UserRow, organizationId: string) {
  const membership = await loadMembership(db, organizationId, user.id);
  if (!membership) throw new AppError('FORBIDDEN', 'You are not a member of this organization.');
  await setCurrentOrganization(db, user.id, organizationId);
  return { organizationId };
}
