import { and, eq, ne, notInArray, sql } from 'drizzle-orm';
import { YOUTUBE_QUOTA } from '../../platforms/youtube/limits.js';
import type { Db } from '../../db/client.js';
import { networkQuotaUsage, platforms, posts, postTargets } from '../../db/schema.js';

/** Adds `amount` to what the network's day has used of a bucket. */
export async function addUsage(
  db: Db,
  network: string,
  day: string,
  bucket: string,
  amount: number,
) {
  await db
    .insert(networkQuotaUsage)
    .values({ network, day, bucket, used: amount })
    .onConflictDoUpdate({
      target: [networkQuotaUsage.network, networkQuotaUsage.day, networkQuotaUsage.bucket],
      set: { used: sql`${networkQuotaUsage.used} + ${amount}`, updatedAt: sql`now()` },
    });
}

/** What each bucket of the network's day has used. */
export async function usageOn(db: Db, network: string, day: string) {
  return db
    .select({ bucket: networkQuotaUsage.bucket, used: networkQuotaUsage.used })
    .from(networkQuotaUsage)
    .where(and(eq(networkQuotaUsage.network, network), eq(networkQuotaUsage.day, day)));
}

/**
 * YouTube uploads still to come on one Pacific day: YouTube targets waiting to go out
 * (QUEUED, of posts scheduled or going out) whose time falls on that day, across every
 * organization, since the quota is the API project's. `exceptPostId`: a post being edited,
 * whose targets are counted as its new version instead.
 */
export async function uploadsScheduledOn(db: Db, day: string, exceptPostId?: string) {
  const due = sql`coalesce(${postTargets.dueAt}, ${posts.scheduledAt})`;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .where(
      and(
        eq(platforms.name, 'YouTube'),
        eq(postTargets.status, 'QUEUED'),
        notInArray(posts.status, ['draft', 'pending_approval']),
        sql`(${due} at time zone ${YOUTUBE_QUOTA.timeZone})::date = ${day}::date`,
        exceptPostId ? ne(posts.id, exceptPostId) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}
