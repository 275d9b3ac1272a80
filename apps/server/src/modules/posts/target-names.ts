import { transactionOf, type Db } from '../../db/client.js';
import { TtlCache } from '../../lib/ttl-cache.js';
import { accountNameRows, networkNameRows } from './names.repository.js';

/** A connected account's current name, username, picture and status, as the library shows them. */
export interface LiveAccount {
  liveName: string | null;
  liveUsername: string | null;
  pictureUrl: string | null;
  accountStatus: string | null;
}

/** What a listed target names by id: its network and its connected account. */
interface TargetNames {
  /** Network id → its name and its place among the networks sorted by name (the database's collation). */
  platforms: Map<string, { name: string; rank: number }>;
  accounts: Map<string, LiveAccount>;
}

/**
 * How long an organization's network and account names are reused by the posts it lists. Joining
 * every target to its network and account was two fifths of the posts page's statement (issue
 * 20); an organization has a handful of accounts and Herald a handful of networks. A change made
 * by this process is seen at once (every state-changing request forgets them, app.ts); one made
 * by another process (the worker marking an account expired) within this time.
 */
export const TARGET_NAMES_TTL_MS = 1000;
const cache = new TtlCache<string, TargetNames>(TARGET_NAMES_TTL_MS, 10_000);

/** Forgets every organization's names (after a change). */
export function forgetTargetNames() {
  cache.clear();
}

async function load(db: Db, organizationId: string): Promise<TargetNames> {
  const [networkRows, accountRows] = await Promise.all([
    networkNameRows(db),
    accountNameRows(db, organizationId),
  ]);
  return {
    platforms: new Map(networkRows.map((row, rank) => [row.id, { name: row.name, rank }])),
    accounts: new Map(accountRows.map(({ id, ...live }) => [id, live])),
  };
}

const NO_ACCOUNT: LiveAccount = {
  liveName: null,
  liveUsername: null,
  pictureUrl: null,
  accountStatus: null,
};

/** A target as the posts' statements read it: the ids of its network and account, no names. */
interface BareTarget {
  platformId: string;
  integrationId: string | null;
}

/**
 * The organization's targets, each with its network's name and its account's live fields, and
 * sorted as the library shows them: by network name, then (as the statement already sorted them,
 * kept by this stable sort) account name, creation and id. A network or account the cached names
 * lack (made by another process a moment ago) reads them afresh once.
 */
export async function nameTargets<T extends BareTarget>(
  db: Db,
  organizationId: string,
  lists: T[][],
): Promise<Array<Array<T & LiveAccount & { platformName: string }>>> {
  if (lists.every((targets) => targets.length === 0)) return lists as never;
  const known = (names: TargetNames) =>
    lists.every((targets) =>
      targets.every(
        (t) =>
          names.platforms.has(t.platformId) &&
          (t.integrationId === null || names.accounts.has(t.integrationId)),
      ),
    );
  let names = (await cache.get(organizationId, () => load(db, organizationId), {
    scope: transactionOf(db),
  }))!;
  if (!known(names)) {
    cache.delete(organizationId);
    names = (await cache.get(organizationId, () => load(db, organizationId), {
      scope: transactionOf(db),
    }))!;
  }
  const rank = (t: BareTarget) =>
    names.platforms.get(t.platformId)?.rank ?? Number.MAX_SAFE_INTEGER;
  return lists.map((targets) =>
    [...targets]
      .sort((a, b) => rank(a) - rank(b))
      .map((t) => ({
        ...t,
        platformName: names.platforms.get(t.platformId)?.name ?? '',
        ...((t.integrationId !== null && names.accounts.get(t.integrationId)) || NO_ACCOUNT),
      })),
  );
}
