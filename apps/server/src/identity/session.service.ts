import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Db } from '../db/client.js';
import { AppError } from '../lib/app-error.js';
import { TtlCache } from '../lib/ttl-cache.js';
import * as repo from './session.repository.js';

export const ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** How long a rotated refresh token may still be presented (concurrent tabs, a lost answer). */
export const REUSE_GRACE_MS = 30 * 1000;
/** Revoked families are kept this long so a stolen token presented later is still recognised. */
export const REVOKED_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * How long a checked access token is believed without asking the database again. Every request
 * checked its session (a query, and an HMAC on the thread pool) — the largest part of a signed-in
 * request's time. A logout, a refresh-token reuse and every other state-changing
 * request of this process clear the cache (`forgetCached`), so here they count at once; a change
 * made by another process (a second API process, `herald admin revoke`) counts within this time.
 */
export const AUTH_CACHE_TTL_MS = 1000;

export type AuthenticatedSession = { user: repo.UserRow; sessionId: string };

export interface IssuedTokens {
  sessionId: string;
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: Date;
}

const hashToken = (raw: string) => createHash('sha256').update(raw).digest('base64url');
const newRefreshToken = () => randomBytes(32).toString('base64url');

export class SessionService {
  private readonly key: Uint8Array;
  private readonly cache: TtlCache<string, AuthenticatedSession & { expiresAtMs: number }>;

  constructor(
    private readonly db: Db,
    signingSecret: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.key = new TextEncoder().encode(signingSecret);
    this.cache = new TtlCache(AUTH_CACHE_TTL_MS, 10_000, () => this.now().getTime());
  }

  /** Forgets every checked token: the next request of each session asks the database again. */
  forgetCached(): void {
    this.cache.clear();
  }

  private async signAccessToken(userId: string, sessionId: string): Promise<string> {
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_MS / 1000)
      .setAudience('herald-api')
      .sign(this.key);
  }

  /** Starts a session (a new refresh-token family) for a user who just signed in. */
  async startSession(
    userId: string,
    meta: { userAgent: string | null; ip: string | null },
  ): Promise<IssuedTokens> {
    const now = this.now();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    return this.db.transaction(async (tx) => {
      const session = await repo.createSessionRow(tx, { userId, expiresAt, ...meta });
      const refreshToken = newRefreshToken();
      await repo.insertRefreshToken(tx, {
        sessionId: session.id,
        tokenHash: hashToken(refreshToken),
        expiresAt,
      });
      return {
        sessionId: session.id,
        accessToken: await this.signAccessToken(userId, session.id),
        refreshToken,
        refreshExpiresAt: expiresAt,
      };
    });
  }

  /**
   * Trades a refresh token for a new pair. A token presented a second time means it was
   * copied: the whole family is revoked, so the thief and the victim both have to sign in again.
   */
  async rotate(rawRefreshToken: string | undefined): Promise<IssuedTokens> {
    const refused = new AppError(
      'UNAUTHENTICATED',
      'Your session has ended. Please sign in again.',
    );
    if (!rawRefreshToken) throw refused;
    const now = this.now();
    const found = await repo.findRefreshToken(this.db, hashToken(rawRefreshToken));
    if (!found) throw refused;
    const { token, session } = found;
    if (session.revokedAt || session.expiresAt <= now || token.expiresAt <= now) throw refused;
    // Two tabs waking together present the same token at once: within a short grace period a
    // just-spent token gets a new successor instead of ending the session. Later, it is theft.
    const withinGrace = (usedAt: Date) => now.getTime() - usedAt.getTime() <= REUSE_GRACE_MS;
    if (token.usedAt && !withinGrace(token.usedAt)) {
      await repo.revokeSessionRow(this.db, session.id, 'reuse', now);
      this.cache.clear();
      throw refused;
    }
    const issued = await this.db.transaction(async (tx) => {
      // A concurrent request may spend it between our read and this write: the grace case too.
      if (!token.usedAt) await repo.markRefreshTokenUsed(tx, token.id, now);
      const refreshToken = newRefreshToken();
      await repo.insertRefreshToken(tx, {
        sessionId: session.id,
        tokenHash: hashToken(refreshToken),
        expiresAt: session.expiresAt,
      });
      await repo.touchSession(tx, session.id, now);
      return { refreshToken };
    });
    return {
      sessionId: session.id,
      accessToken: await this.signAccessToken(session.userId, session.id),
      refreshToken: issued.refreshToken,
      refreshExpiresAt: session.expiresAt,
    };
  }

  /**
   * Resolves an access token to its user, or null when it is invalid, expired or revoked. An
   * answer is reused for up to AUTH_CACHE_TTL_MS, never past the token's expiry.
   */
  async authenticate(accessToken: string | undefined): Promise<AuthenticatedSession | null> {
    if (!accessToken) return null;
    const found = await this.cache.get(accessToken, () => this.checkAccessToken(accessToken), {
      until: (checked) => checked.expiresAtMs,
    });
    return found ? { user: found.user, sessionId: found.sessionId } : null;
  }

  private async checkAccessToken(
    accessToken: string,
  ): Promise<(AuthenticatedSession & { expiresAtMs: number }) | null> {
    let sub: string | undefined;
    let sid: unknown;
    let exp: number | undefined;
    try {
      const { payload } = await jwtVerify(accessToken, this.key, {
        audience: 'herald-api',
        algorithms: ['HS256'],
        currentDate: this.now(),
      });
      ({ sub, sid, exp } = payload);
    } catch {
      return null;
    }
    if (!sub || typeof sid !== 'string' || exp === undefined) return null;
    const user = await repo.findUserOfLiveSession(this.db, sid, sub, this.now());
    return user ? { user, sessionId: sid, expiresAtMs: exp * 1000 } : null;
  }

  /** Ends a session by its refresh token or id; unknown tokens are ignored (logout always succeeds). */
  async revoke(by: { sessionId?: string; refreshToken?: string }): Promise<void> {
    const now = this.now();
    let sessionId = by.sessionId;
    if (!sessionId && by.refreshToken) {
      sessionId = (await repo.findRefreshToken(this.db, hashToken(by.refreshToken)))?.session.id;
    }
    if (sessionId) await repo.revokeSessionRow(this.db, sessionId, 'logout', now);
    this.cache.clear();
  }

  /** Removes sessions nobody can use any more; run by the `sessions.expire` job. */
  expireStale(): Promise<number> {
    return repo.deleteStaleSessions(this.db, this.now(), REVOKED_RETENTION_MS);
  }
}
