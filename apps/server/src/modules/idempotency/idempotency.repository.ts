import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { idempotencyKeys } from '../../db/schema.js';

/** How long a key answers with its first result. */
export const KEY_LIFETIME_HOURS = 24;
/** A first request still unanswered after this long died with its process; its key is free. */
const ABANDONED_AFTER_SECONDS = 120;

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; request: string; statusCode: number; response: unknown }
  | { kind: 'running'; request: string };

/** Takes a key for a request, or says what became of the request that took it first. */
export async function claimKey(
  db: Db,
  userId: string,
  key: string,
  request: string,
): Promise<Claim> {
  // A key from a crashed request, or older than its lifetime, is taken over.
  await db.delete(idempotencyKeys).where(
    and(
      eq(idempotencyKeys.userId, userId),
      eq(idempotencyKeys.key, key),
      sql`(${idempotencyKeys.createdAt} < now() - make_interval(hours => ${KEY_LIFETIME_HOURS})
          or (${idempotencyKeys.statusCode} is null
            and ${idempotencyKeys.createdAt} < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS})))`,
    ),
  );
  const taken = await db
    .insert(idempotencyKeys)
    .values({ userId, key, request })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (taken.length > 0) return { kind: 'claimed' };
  const [first] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  if (!first) return claimKey(db, userId, key, request);
  if (first.statusCode === null) return { kind: 'running', request: first.request };
  return {
    kind: 'replay',
    request: first.request,
    statusCode: first.statusCode,
    response: first.response,
  };
}

export async function recordAnswer(
  db: Db,
  userId: string,
  key: string,
  statusCode: number,
  response: unknown,
) {
  await db
    .update(idempotencyKeys)
    .set({ statusCode, response })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/** The first request failed: nothing was created, so a retry may run again. */
export async function releaseKey(db: Db, userId: string, key: string) {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/** Keys past their lifetime (the sessions sweep calls this). */
export async function purgeExpiredKeys(db: Db) {
  await db
    .delete(idempotencyKeys)
    .where(
      lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${KEY_LIFETIME_HOURS})`),
    );
}
