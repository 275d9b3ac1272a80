import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { networkQuotaUsage } from '../../db/schema.js';

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
