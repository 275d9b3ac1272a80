import {
  webUrlOrNull,
  type CurrentMember,
  type UpdateUserRequestSchema,
  type User,
} from '@herald/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { LoadMembership } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/audit.service.js';
import type { VerifiedIdentity } from '../../identity/oidc-client.js';
import * as repo from './users.repository.js';
import {
  listActiveMembershipsOfUser,
  loadMembership,
  toCurrentMemberDto,
  toMembershipContext,
} from '../team/membership.js';

export type { UserRow } from './users.repository.js';

/** What the API says about a user; the contract's shape, never the row. */
export function toUserDto(row: repo.UserRow): User {
  return {
    id: row.id,
    displayName: row.displayName,
    email: row.email,
    avatarUrl: webUrlOrNull(row.avatarUrl),
    timezone: row.timezone,
    isAdmin: row.isAdmin,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Creates or updates the user behind an identity the provider vouched for. A user is found by
 * (issuer, subject) first; an address the provider verified may claim an existing account of the
 * same email (for example one invited before ever signing in). ADMIN_EMAILS grants operator rights.
 */
export async function signInWithIdentity(
  db: Db,
  identity: VerifiedIdentity,
  adminEmails: readonly string[],
) {
  const email = identity.email?.trim().toLowerCase();
  if (!email) {
    throw new AppError(
      'FORBIDDEN',
      'Your identity provider did not share an email address, which Herald needs. Allow access to your email and try again.',
    );
  }
  const profile = {
    email,
    displayName: identity.name?.trim() || null,
    // The provider's picture is shown as an image: only a web address is kept.
    avatarUrl: webUrlOrNull(identity.picture),
    emailVerified: identity.emailVerified === true,
  };
  // Only an address the provider verified may claim an account or operator rights.
  const verified = identity.emailVerified === true;
  const grantAdmin = verified && adminEmails.includes(email);
  return db.transaction(async (tx) => {
    let user = await repo.findUserByIdentity(tx, identity.issuer, identity.subject);
    if (!user) {
      const byEmail = await repo.findUserByEmail(tx, email);
      if (byEmail && !verified) {
        throw new AppError(
          'FORBIDDEN',
          'Your identity provider did not confirm your email address, and another Herald account already uses it. Confirm the address with your provider, then sign in again.',
        );
      }
      if (byEmail) user = byEmail;
    }
    if (!user) {
      return repo.insertUser(tx, {
        ...profile,
        oidcIssuer: identity.issuer,
        oidcSubject: identity.subject,
        isAdmin: grantAdmin,
      });
    }
    return repo.updateUser(tx, user.id, {
      ...profile,
      displayName: profile.displayName ?? user.displayName,
      avatarUrl: profile.avatarUrl ?? user.avatarUrl,
      oidcIssuer: identity.issuer,
      oidcSubject: identity.subject,
      ...(grantAdmin ? { isAdmin: true } : {}),
    });
  });
}

/**
 * The caller's membership in their current organization: the one they last chose, or else the
 * first they belong to; null before onboarding.
 */
export async function getCurrentMember(
  db: Db,
  user: repo.UserRow,
  load: LoadMembership = (orgId, userId) => loadMembership(db, orgId, userId),
): Promise<CurrentMember | null> {
  if (user.currentOrganizationId) {
    const current = await load(user.currentOrganizationId, user.id);
    if (current) return toCurrentMemberDto(current);
  }
  const [first] = await listActiveMembershipsOfUser(db, user.id);
  return first ? toCurrentMemberDto(toMembershipContext(first)) : null;
}

type ProfileChanges = z.output<typeof UpdateUserRequestSchema>;

/** The fields a profile edit may change, as the audit log shows them. */
const profileOf = (row: repo.UserRow) => ({
  displayName: row.displayName,
  avatarUrl: row.avatarUrl,
  timezone: row.timezone,
});

/**
 * `PUT /users/{id}`: people edit their own name and time zone; operators may edit anyone's, and
 * the picture too. Nothing else of a user changes here. An operator's edit is audited.
 */
export async function updateProfile(
  db: Db,
  editor: repo.UserRow,
  userId: string,
  changes: ProfileChanges,
): Promise<User> {
  if (userId !== editor.id && !editor.isAdmin) {
    throw new AppError('FORBIDDEN', 'You can only change your own profile.');
  }
  return db.transaction(async (tx) => {
    const before = await repo.findUserById(tx, userId);
    if (!before) throw new AppError('NOT_FOUND', 'This user does not exist.');
    const updated = await repo.updateUser(tx, userId, {
      displayName: changes.displayName,
      ...(changes.timezone !== undefined ? { timezone: changes.timezone } : {}),
      ...(changes.avatarUrl !== undefined && editor.isAdmin
        ? { avatarUrl: changes.avatarUrl }
        : {}),
    });
    if (editor.isAdmin) {
      await recordAudit(
        tx,
        { id: editor.id, email: editor.email },
        {
          action: 'user.update',
          target: { type: 'user', id: updated.id, label: updated.email },
          before: profileOf(before),
          after: profileOf(updated),
        },
      );
    }
    return toUserDto(updated);
  });
}

/**
 * `PUT /users/me/default-timezone`: on first sign-in the browser tells its zone, which becomes
 * the user's until they choose another in settings. A zone already set is kept as it is.
 */
export async function defaultTimezone(db: Db, user: repo.UserRow, timezone: string): Promise<User> {
  const updated = await repo.setTimezoneIfUnset(db, user.id, timezone);
  if (!updated) throw new AppError('NOT_FOUND', 'This user does not exist.');
  return toUserDto(updated);
}

/** `herald admin grant|revoke <email>`: returns false when no user has that address yet. */
export async function setOperator(db: Db, email: string, isAdmin: boolean): Promise<boolean> {
  return db.transaction(async (tx) => {
    const before = await repo.findUserByEmail(tx, email);
    if (!before) return false;
    await repo.setAdminByEmail(tx, email, isAdmin);
    await recordAudit(tx, null, {
      action: isAdmin ? 'operator.grant' : 'operator.revoke',
      target: { type: 'user', id: before.id, label: before.email },
      before: { isAdmin: before.isAdmin },
      after: { isAdmin },
    });
    return true;
  });
}

/** The user with this id, or null. */
export const findUser = (db: Db, id: string) => repo.findUserById(db, id);

/** Remembers the organization the user works in (sign-in returns there); null forgets it. */
export const setCurrentOrganization = (db: Db, userId: string, organizationId: string | null) =>
  repo.setCurrentOrganization(db, userId, organizationId);

/** Forgets the user's current organization if it is this one (after they left it). */
export const clearCurrentOrganizationIf = (db: Db, userId: string, organizationId: string) =>
  repo.clearCurrentOrganizationIf(db, userId, organizationId);
