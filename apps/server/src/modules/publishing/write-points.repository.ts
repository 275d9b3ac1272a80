import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accountWritePauses, accountWritePoints } from '../../db/schema.js';
import type { WriteWindow } from '../../platforms/types.js';

export type WriteAnswer = { ok: true } | { ok: false; retryAt: Date };

/**
 * Whether `points` fit the account's windows at `at`, and, when `take`, counts them: under a
 * lock of the account's own, so two processes cannot both take the last points of a window.
 */
export const measureWrite = (
  db: Db,
  at: Date,
  key: { network: string; account: string },
  points: number,
  windows: readonly WriteWindow[],
  take: boolean,
): Promise<WriteAnswer> =>
  db.transaction(async (tx) => {
    const { network, account } = key;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${network}:${account}`}))`);
    const longest = Math.max(0, ...windows.map((w) => w.seconds)) * 1000;
    const oldest = new Date(at.getTime() - longest);
    const ofAccount = and(
      eq(accountWritePoints.network, network),
      eq(accountWritePoints.account, account),
    );
    await tx.delete(accountWritePoints).where(and(ofAccount, lte(accountWritePoints.at, oldest)));
    const [pause] = await tx
      .select({ until: accountWritePauses.until })
      .from(accountWritePauses)
      .where(
        and(
          eq(accountWritePauses.network, network),
          eq(accountWritePauses.account, account),
          gt(accountWritePauses.until, at),
        ),
      );
    if (pause) return { ok: false as const, retryAt: pause.until };
    const rows = await tx
      .select({ points: accountWritePoints.points, at: accountWritePoints.at })
      .from(accountWritePoints)
      .where(and(ofAccount, gt(accountWritePoints.at, oldest)))
      .orderBy(asc(accountWritePoints.at));
    let retryAt: Date | null = null;
    for (const window of windows) {
      const span = window.seconds * 1000;
      const inside = rows.filter((r) => r.at.getTime() > at.getTime() - span);
      const used = inside.reduce((sum, r) => sum + r.points, 0);
      let over = used + points - window.points;
      if (over <= 0) continue;
      // Room comes back as the window's oldest writes leave it.
      let fits = at.getTime() + span;
      for (const row of inside) {
        over -= row.points;
        if (over <= 0) {
          fits = row.at.getTime() + span;
          break;
        }
      }
      if (!retryAt || fits > retryAt.getTime()) retryAt = new Date(fits);
    }
    if (retryAt) return { ok: false as const, retryAt };
    if (take) await tx.insert(accountWritePoints).values({ network, account, points, at });
    return { ok: true as const };
  });

/** Keeps the later of the stored pause and `until`. */
export async function pauseWrites(db: Db, key: { network: string; account: string }, until: Date) {
  await db
    .insert(accountWritePauses)
    .values({ ...key, until })
    .onConflictDoUpdate({
      target: [accountWritePauses.network, accountWritePauses.account],
      set: { until: sql`greatest(${accountWritePauses.until}, excluded.until)` },
    });
}
