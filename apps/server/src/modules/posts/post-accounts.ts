import type { Db } from '../../db/client.js';
import { assertReachesAccounts, onlyReachable } from '../team/account-access.js';
import { targetAccountsOfPosts, type ConnectedAccount } from './posts.repository.js';

/** How a refusal names an account a post goes out to: "@acme on X", else its name. */
export const accountLabel = (a: {
  username: string | null;
  name: string | null;
  network: string;
}) => `${a.username ? `@${a.username}` : (a.name ?? 'an account')} on ${a.network}`;

/** The accounts each of the organization's posts among `postIds` goes out to, named. */
export async function postAccounts(db: Db, organizationId: string, postIds: string[]) {
  const found = await targetAccountsOfPosts(db, organizationId, postIds);
  return new Map(
    [...found].map(([postId, targets]) => [
      postId,
      targets.map((t) => ({ integrationId: t.integrationId, label: accountLabel(t) })),
    ]),
  );
}

/**
 * The connected accounts a caller may post to: a member limited to some accounts is refused
 * (naming it) an account outside them that the request names, and a network named by its id
 * means their account on it, never another one.
 */
export function reachableAccounts(
  caller: { accountIds?: string[] | null },
  connected: ConnectedAccount[],
  namedIds: readonly string[] | undefined,
): ConnectedAccount[] {
  const limit = { accountIds: caller.accountIds ?? null };
  const named = new Set(namedIds ?? []);
  assertReachesAccounts(
    limit,
    connected
      .filter((a) => named.has(a.integrationId))
      .map((a) => ({
        integrationId: a.integrationId,
        label: accountLabel({ username: a.username, name: a.name, network: a.platformName }),
      })),
  );
  return onlyReachable(limit, connected, (a) => a.integrationId);
}
