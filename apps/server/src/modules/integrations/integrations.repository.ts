import { and, asc, count, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { type Db, isEmbedded } from '../../db/client.js';
import { createKeyedLock } from '../../lib/keyed-lock.js';
import { forgetTargetNames } from '../posts/target-names.js';
import {
  integrations,
  networkInstanceApps,
  pendingConnections,
  platforms,
  posts,
  postTargets,
} from '../../db/schema.js';

export type IntegrationRow = typeof integrations.$inferSelect;
export type IntegrationValues = Omit<
  typeof integrations.$inferInsert,
  'id' | 'organizationId' | 'platformId' | 'platformAccountId'
>;

export function listIntegrations(db: Db, organizationId: string) {
  return db
    .select({ integration: integrations, platform: { id: platforms.id, name: platforms.name } })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(eq(integrations.organizationId, organizationId))
    .orderBy(asc(platforms.name), asc(integrations.connectedAt));
}

/**
 * Per account: how many posts still to go out (scheduled or publishing) it publishes, those
 * uploaded ahead to the network (UPLOADED) included.
 */
export async function scheduledPostCounts(db: Db, organizationId: string) {
  const rows = await db
    .select({
      integrationId: postTargets.integrationId,
      n: sql<number>`count(distinct ${postTargets.postId})`.mapWith(Number),
    })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .where(
      and(
        eq(postTargets.organizationId, organizationId),
        inArray(postTargets.status, ['QUEUED', 'PREPARING', 'READY', 'PUBLISHING', 'UPLOADED']),
        inArray(posts.status, ['scheduled', 'publishing']),
      ),
    )
    .groupBy(postTargets.integrationId);
  return new Map(rows.flatMap((r) => (r.integrationId ? [[r.integrationId, r.n] as const] : [])));
}

export function listOfPlatform(db: Db, organizationId: string, platformId: string) {
  return db
    .select()
    .from(integrations)
    .where(
      and(eq(integrations.organizationId, organizationId), eq(integrations.platformId, platformId)),
    );
}

export async function findAccount(
  db: Db,
  organizationId: string,
  platformId: string,
  platformAccountId: string,
) {
  const [row] = await db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.organizationId, organizationId),
        eq(integrations.platformId, platformId),
        eq(integrations.platformAccountId, platformAccountId),
      ),
    );
  return row ?? null;
}

export async function countConnected(db: Db, organizationId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(integrations)
    .where(
      and(eq(integrations.organizationId, organizationId), eq(integrations.status, 'CONNECTED')),
    );
  return row?.n ?? 0;
}

/** Inserts the account or updates it in place (reconnecting never creates a second row). */
export async function upsertAccount(
  db: Db,
  key: { organizationId: string; platformId: string; platformAccountId: string },
  values: IntegrationValues,
) {
  const [row] = await db
    .insert(integrations)
    .values({ ...key, ...values })
    .onConflictDoUpdate({
      target: [
        integrations.organizationId,
        integrations.platformId,
        integrations.platformAccountId,
      ],
      set: { ...values, updatedAt: new Date() },
    })
    .returning();
  // Posts still waiting for this account since it was disconnected go out from it again, and
  // their uploads waiting at the network follow their posts again.
  await db
    .update(postTargets)
    .set({ integrationId: row!.id, updatedAt: new Date() })
    .where(
      and(
        eq(postTargets.organizationId, key.organizationId),
        eq(postTargets.platformId, key.platformId),
        eq(postTargets.accountExternalId, key.platformAccountId),
        isNull(postTargets.integrationId),
        // UPLOADED: a video waiting at the network, which only its account can still take back.
        inArray(postTargets.status, ['QUEUED', 'UPLOADED']),
        sql`not exists (select 1 from post_targets o where o.post_id = post_targets.post_id and o.integration_id = ${row!.id})`,
      ),
    );
  forgetTargetNames();
  return row!;
}

export async function updateIntegration(db: Db, id: string, values: Partial<IntegrationValues>) {
  const [row] = await db
    .update(integrations)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(integrations.id, id))
    .returning();
  forgetTargetNames();
  return row!;
}

/**
 * REFRESH_FAILED with `lastError`, if the account is still CONNECTED with the tokens the caller
 * read: a reconnect meanwhile brought tokens that may well be readable.
 */
export async function markRefreshFailedIfUnchanged(
  db: Db,
  row: Pick<IntegrationRow, 'id' | 'accessTokenEnc'>,
  lastError: string,
) {
  const [updated] = await db
    .update(integrations)
    .set({ status: 'REFRESH_FAILED', lastError, updatedAt: new Date() })
    .where(
      and(
        eq(integrations.id, row.id),
        eq(integrations.status, 'CONNECTED'),
        row.accessTokenEnc === null
          ? isNull(integrations.accessTokenEnc)
          : eq(integrations.accessTokenEnc, row.accessTokenEnc),
      ),
    )
    .returning({ organizationId: integrations.organizationId });
  if (updated) forgetTargetNames();
  // The account's organization when it was marked (null: not, as it changed meanwhile).
  return updated?.organizationId ?? null;
}

export async function deleteIntegration(db: Db, organizationId: string, id: string) {
  await db
    .delete(integrations)
    .where(and(eq(integrations.organizationId, organizationId), eq(integrations.id, id)));
  forgetTargetNames();
}

const refreshQueue = createKeyedLock();

/**
 * Runs `work` holding the account's refresh lock, with the row as it is once the lock is taken
 * (null when the account is gone); `work` writes through the `db` it is given. Callers of one
 * process queue in memory first, so waiting never holds a database connection; on PostgreSQL the
 * row is then locked (`SELECT … FOR UPDATE`) for the rest of the work, which keeps the API and
 * worker processes apart too. PGlite is one process's alone, and holding its single connection
 * through a network call would stop every other query (the sandboxes' included): the in-memory
 * queue is the whole lock there.
 */
export function withLockedIntegration<T>(
  db: Db,
  id: string,
  work: (db: Db, row: IntegrationRow | null) => Promise<T>,
): Promise<T> {
  return refreshQueue(id, async () => {
    if (isEmbedded(db)) {
      const [row] = await db.select().from(integrations).where(eq(integrations.id, id));
      return work(db, row ?? null);
    }
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(integrations)
        .where(eq(integrations.id, id))
        .for('update');
      return work(tx as unknown as Db, row ?? null);
    });
  });
}

/** Connected accounts whose access token expires before `before`, locked for this worker. */
export function dueForRefresh(db: Db, before: Date, limit: number) {
  return db
    .select({ integration: integrations, platform: { id: platforms.id, name: platforms.name } })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(and(eq(integrations.status, 'CONNECTED'), lt(integrations.accessTokenExpiresAt, before)))
    .orderBy(asc(integrations.accessTokenExpiresAt))
    .limit(limit);
}

/**
 * Connected accounts without a refresh token whose access ends between `now` and `before`
 * (docs/networks.md#linkedin-oauth: reminders to reconnect), soonest first.
 */
export function expiringWithoutRefresh(db: Db, now: Date, before: Date, limit: number) {
  return db
    .select({ integration: integrations, platform: { id: platforms.id, name: platforms.name } })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(
      and(
        eq(integrations.status, 'CONNECTED'),
        isNull(integrations.refreshTokenEnc),
        gt(integrations.accessTokenExpiresAt, now),
        lt(integrations.accessTokenExpiresAt, before),
      ),
    )
    .orderBy(asc(integrations.accessTokenExpiresAt))
    .limit(limit);
}

/**
 * Records that the `notice` reminder went out for the account's current expiry; false when it
 * already had (another worker, an earlier run), so each reminder is sent once per token.
 */
export async function markExpiryNotice(db: Db, id: string, notice: string, expiresAt: Date) {
  const at = expiresAt.toISOString();
  const rows = await db
    .update(integrations)
    .set({
      extra: sql`jsonb_set(${integrations.extra}, '{expiryNotices}', coalesce(${integrations.extra}->'expiryNotices', '{}'::jsonb) || jsonb_build_object(${notice}::text, ${at}::text))`,
    })
    .where(
      and(
        eq(integrations.id, id),
        sql`coalesce(${integrations.extra}->'expiryNotices'->>${notice}::text, '') <> ${at}::text`,
      ),
    )
    .returning({ id: integrations.id });
  return rows.length > 0;
}

export function insertPending(db: Db, values: typeof pendingConnections.$inferInsert) {
  return db
    .insert(pendingConnections)
    .values(values)
    .returning()
    .then((r) => r[0]!);
}

export async function findPending(
  db: Db,
  id: string,
  organizationId: string,
  userId: string,
  now: Date,
) {
  const [row] = await db
    .select()
    .from(pendingConnections)
    .where(
      and(
        eq(pendingConnections.id, id),
        eq(pendingConnections.organizationId, organizationId),
        eq(pendingConnections.userId, userId),
        gt(pendingConnections.expiresAt, now),
      ),
    );
  return row ?? null;
}

export async function deletePending(db: Db, id: string) {
  await db.delete(pendingConnections).where(eq(pendingConnections.id, id));
}

/** Removes account choices past their expiry (they hold encrypted tokens); returns how many. */
export async function deleteExpiredPending(db: Db, now: Date): Promise<number> {
  const removed = await db
    .delete(pendingConnections)
    .where(lt(pendingConnections.expiresAt, now))
    .returning({ id: pendingConnections.id });
  return removed.length;
}

/** Ids of connected accounts (in any organization) that rely on the same grant at the network. */
export async function connectedWithGrant(db: Db, grantKey: string) {
  const rows = await db
    .select({ id: integrations.id })
    .from(integrations)
    .where(
      and(
        eq(integrations.status, 'CONNECTED'),
        sql`${integrations.extra}->>'grantKey' = ${grantKey}`,
      ),
    );
  return rows.map((r) => r.id);
}

type ServerAppKey = { network: string; instance: string; redirectUri: string };

/** Herald's app on one server of a network of many servers (Mastodon), when registered. */
export function findServerApp(db: Db, key: ServerAppKey) {
  return db
    .select()
    .from(networkInstanceApps)
    .where(
      and(
        eq(networkInstanceApps.network, key.network),
        eq(networkInstanceApps.instance, key.instance),
        eq(networkInstanceApps.redirectUri, key.redirectUri),
      ),
    )
    .limit(1)
    .then((r) => r[0] ?? null);
}

/** Keeps a server app; another one stored first for the same server stays. */
export async function insertServerApp(
  db: Db,
  values: ServerAppKey & { clientIdEnc: string; clientSecretEnc: string },
) {
  await db.insert(networkInstanceApps).values(values).onConflictDoNothing();
}
