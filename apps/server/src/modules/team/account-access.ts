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

/**
 * An analytics query as a member limited to some accounts may ask it: about those accounts (all
 * of them when it names none); naming another is refused, and so is asking with none to reach.
 */
export function reachableAnalyticsQuery<Q extends { integrationIds?: string[] | undefined }>(
  member: Limit,
  query: Q,
): Q {
  const { accountIds } = member;
  if (accountIds === null) return query;
  if (accountIds.length === 0)
    throw new AppError(
      'FORBIDDEN',
      "You don't have access to any connected account's analytics. Ask an Admin.",
    );
  if (!query.integrationIds?.length) return { ...query, integrationIds: accountIds };
  if (query.integrationIds.some((id) => !accountIds.includes(id)))
    throw new AppError(
      'FORBIDDEN',
      "You don't have access to the analytics of one of the chosen accounts. Ask an Admin.",
    );
  return query;
}
