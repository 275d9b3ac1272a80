import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';

/** The channel on which a change of who may see what is announced to every API process. */
export const ACCESS_CHANNEL = 'herald_access';

/**
 * What changed, as narrowly as the writer knows it: a session ended; a person's membership of an
 * organization was removed or changed; an organization's roles changed (every member of it). A
 * listener reads the access of whatever matches afresh; the announcement itself grants nothing.
 */
export type AccessChange =
  { sessionId: string } | { userId: string; organizationId: string } | { organizationId: string };

/**
 * Announces a change of access on `db` — inside the writer's transaction when there is one, so it
 * goes out when the change is committed and the listeners read the new state.
 */
export async function announceAccessChange(db: Db, change: AccessChange): Promise<void> {
  await db.execute(sql`select pg_notify(${ACCESS_CHANNEL}, ${JSON.stringify(change)})`);
}

/** Whether a live stream of `stream` is among those `change` concerns. */
export function concerns(
  change: Partial<Record<'sessionId' | 'userId' | 'organizationId', string>>,
  stream: { sessionId: string; userId: string; organizationId: string },
): boolean {
  const keys = ['sessionId', 'userId', 'organizationId'] as const;
  // An announcement naming nothing we know is ignored rather than taken to mean everyone.
  if (!keys.some((key) => typeof change[key] === 'string')) return false;
  return keys.every((key) => change[key] === undefined || change[key] === stream[key]);
}
