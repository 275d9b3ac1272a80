import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apiKeys, users } from '../../db/schema.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;

export async function insertApiKey(db: Db, values: NewApiKey): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row!;
}

/** The organization's keys not revoked, newest first, with their creator's email. */
export function listLiveApiKeys(db: Db, organizationId: string) {
  return db
    .select({ key: apiKeys, creatorEmail: users.email })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
}

/** A key by the hash of the whole key, with the user it acts as. */
export async function findApiKeyByHash(db: Db, keyHash: string) {
  const [row] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(eq(apiKeys.keyHash, keyHash));
  return row ?? null;
}

/** Marks the organization's key revoked; null when it is not there or already revoked. */
export async function revokeApiKey(
  db: Db,
  organizationId: string,
  keyId: string,
  now: Date,
): Promise<ApiKeyRow | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(
      and(
        eq(apiKeys.id, keyId),
        eq(apiKeys.organizationId, organizationId),
        isNull(apiKeys.revokedAt),
      ),
    )
    .returning();
  return row ?? null;
}

/** Records a use unless one was recorded after `since` (by this process or another). */
export async function touchLastUsed(db: Db, keyId: string, now: Date, since: Date) {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, since))),
    );
}
