import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { authSessions, refreshTokens, users } from '../db/schema.js';
import { announceAccessChange } from './access-changes.js';

export type SessionRow = typeof authSessions.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export function createSessionRow(
  db: Db,
  values: { userId: string; expiresAt: Date; userAgent: string | null; ip: string | null },
) {
  return db
    .insert(authSessions)
    .values(values)
    .returning()
    .then((rows) => rows[0]!);
}

export function insertRefreshToken(
  db: Db,
  values: { sessionId: string; tokenHash: string; expiresAt: Date },
) {
  return db.insert(refreshTokens).values(values);
}

export async function findRefreshToken(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ token: refreshTokens, session: authSessions })
    .from(refreshTokens)
    .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, tokenHash));
  return row ?? null;
}

/** Marks a token spent. Returns false when another request spent it first. */
export async function markRefreshTokenUsed(db: Db, tokenId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(and(eq(refreshTokens.id, tokenId), isNull(refreshTokens.usedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export function touchSession(db: Db, sessionId: string, now: Date) {
  return db.update(authSessions).set({ lastUsedAt: now }).where(eq(authSessions.id, sessionId));
}

/**
 * Ends a session, and announces it to every API process so the live streams it opened close
 * (an event stream outlives the request that checked its session).
 */
export async function revokeSessionRow(
  db: Db,
  sessionId: string,
  reason: 'logout' | 'reuse' | 'expired',
  now: Date,
) {
  await db
    .update(authSessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
  await announceAccessChange(db, { sessionId });
}

/** The user behind a live (unrevoked, unexpired) session, in one query. */
export async function findUserOfLiveSession(db: Db, sessionId: string, userId: string, now: Date) {
  const [row] = await db
    .select({ user: users })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(
      and(
        eq(authSessions.id, sessionId),
        eq(authSessions.userId, userId),
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, now),
      ),
    );
  return row?.user ?? null;
}

/**
 * Deletes sessions that can no longer be used: expired, or revoked long enough ago that reuse
 * detection no longer needs their spent tokens. Returns how many were removed.
 */
export async function deleteStaleSessions(db: Db, now: Date, revokedRetentionMs: number) {
  const revokedBefore = new Date(now.getTime() - revokedRetentionMs);
  const rows = await db
    .delete(authSessions)
    .where(or(lt(authSessions.expiresAt, now), lt(authSessions.revokedAt, revokedBefore)))
    .returning({ id: authSessions.id });
  return rows.length;
}

export function countLiveSessions(db: Db, userId: string, now: Date) {
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(authSessions)
    .where(
      and(
        eq(authSessions.userId, userId),
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, now),
      ),
    )
    .then((r) => r[0]?.n ?? 0);
}
