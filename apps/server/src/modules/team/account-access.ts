import { AppError } from '../../lib/app-error.js';
import type { MembershipContext } from './membership.js';

type Limit = Pick<MembershipContext, 'accountIds'>;

/** Whether the member reaches a connected account (every member reaches all unless limited). */
export const reachesAccount = (member: Limit, integrationId: string | null | undefined): boolean =>
  member.accountIds === null || (!!integrationId && member.accountIds.includes(integrationId));

/** Keeps what belongs to accounts the member reaches. */
export function onlyReachable<T>(
  member: Limit,
  items: readonly T[],
  accountOf: (item: T) => string | null | undefined,
): T[] {
  return member.accountIds === null
    ? [...items]
    : items.filter((item) => reachesAccount(member, accountOf(item)));
}

/** The sentence a limited member reads when an account is outside their reach. */
export const noAccessTo = (label: string) =>
  new AppError('FORBIDDEN', `You don't have access to ${label}. Ask an Admin.`);

/** Refuses, naming the first, when any of `accounts` is outside the member's reach. */
export function assertReachesAccounts(
  member: Limit,
  accounts: readonly { integrationId: string | null | undefined; label: string }[],
) {
  const outside = accounts.find((a) => !reachesAccount(member, a.integrationId));
  if (outside) throw noAccessTo(outside.label);
}
