import { transactionOf, type Db } from '../../db/client.js';
import { TtlCache } from '../../lib/ttl-cache.js';
import { creatorRows } from './names.repository.js';

/** Who created a post, as the library shows them. */
export interface Creator {
  id: string;
  displayName: string | null;
}

/**
 * How long a creator's name is reused by the posts listed. Reading it beside every listed post
 * was a fifth of the posts page's statement in PostgreSQL, while a library shows the
 * posts of a handful of people. A rename through the API is seen at once (every state-changing
 * request forgets them, app.ts); one made otherwise (at sign-in, from the identity provider's
 * profile, or by another process) within this time.
 */
export const CREATOR_NAMES_TTL_MS = 1000;
const cache = new TtlCache<string, Creator>(CREATOR_NAMES_TTL_MS, 10_000);

/** Forgets every cached creator (after a change). */
export function forgetCreatorNames() {
  cache.clear();
}

/**
 * The people among `ids` (nulls skipped; a deleted person is absent), by id. Those not cached, or
 * due to be read again, are read by one statement for the whole call.
 */
export async function creatorsOf(
  db: Db,
  ids: ReadonlyArray<string | null>,
): Promise<Map<string, Creator>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  let read: Promise<Map<string, Creator>> | undefined;
  const readAll = () =>
    (read ??= creatorRows(db, wanted).then((rows) => new Map(rows.map((row) => [row.id, row]))));
  const scope = transactionOf(db);
  const found = await Promise.all(
    wanted.map((id) => cache.get(id, async () => (await readAll()).get(id) ?? null, { scope })),
  );
  return new Map(found.flatMap((creator) => (creator ? [[creator.id, creator] as const] : [])));
}
