import type { CurrentMember, User } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import * as repo from './users.repository.js';
import { listActiveMembershipsOfUser } from '../team/membership.repository.js';
import { loadMembership, toCurrentMemberDto, toMembershipContext } from '../team/membership.js';

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean | undefined;
  name: string | undefined;
  picture: string | undefined;
}

/** What the API says about a user; the contract's shape, never the row. */
export function toUserDto(row: repo.UserRow): User {
  return {
    id: row.id,
    displayName: row.displayName,
    email: row.email,
    avatarUrl: row.avatarUrl,
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
    avatarUrl: identity.picture ?? null,
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
export async function getCurrentMember(db: Db, user: repo.UserRow): Promise<CurrentMember | null> {
  if (user.currentOrganizationId) {
    const current = await loadMembership(db, user.currentOrganizationId, user.id);
    if (current) return toCurrentMemberDto(current);
  }
  const [first] = await listActiveMembershipsOfUser(db, user.id);
  return first ? toCurrentMemberDto(toMembershipContext(first)) : null;
}

/** `herald admin grant|revoke <email>`: returns false when no user has that address yet. */
export async function setOperator(db: Db, email: string, isAdmin: boolean): Promise<boolean> {
  return (await repo.setAdminByEmail(db, email, isAdmin)) > 0;
}
