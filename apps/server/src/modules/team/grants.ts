import { AppError } from '../../lib/app-error.js';
import type { MembershipContext } from './membership.js';

/**
 * The one rule for every path that hands out access (invitations, member role changes, role
 * edits): no one grants more than they hold, and only an Admin hands out the Admin role.
 */
export function assertCanGrant(
  actor: MembershipContext,
  role: { isAdmin: boolean } | null,
  permissions: readonly string[],
) {
  if (role?.isAdmin && !actor.role?.isAdmin) {
    throw new AppError('FORBIDDEN', 'Only an Admin can give the Admin role.');
  }
  const beyond = permissions.filter((p) => !actor.permissions.includes(p));
  if (beyond.length) {
    throw new AppError(
      'FORBIDDEN',
      `You cannot grant permissions you do not have yourself: ${beyond.join(', ')}.`,
    );
  }
}

/** A member's own access is changed by someone else: no one raises (or reshapes) their own. */
export function assertNotSelf(actor: MembershipContext, memberId: string) {
  if (actor.id === memberId) {
    throw new AppError(
      'FORBIDDEN',
      'You cannot change your own role. Ask another Admin of this organization.',
    );
  }
}
