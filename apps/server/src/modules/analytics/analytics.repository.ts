import { and, eq, gte, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import type { Db } from '../../db/client.js';
import {
  accountMetricDays,
  analyticsAccountStatus,
  analyticsSettings,
  integrations,
  platforms,
  postMetricSnapshots,
  postTargets,
} from '../../db/schema.js';
import type { AccountMetricValues, PostMetricValues } from '../../platforms/types.js';

/** A published target with what collecting its metrics needs. */
export async function loadPublishedTarget(db: Db, targetId: string) {
  const [row] = await db
    .select({ target: postTargets, integration: integrations, platformName: platforms.name })
    .from(postTargets)
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .leftJoin(integrations, eq(integrations.id, postTargets.integrationId))
    .where(and(eq(postTargets.id, targetId), eq(postTargets.status, 'PUBLISHED')))
    .limit(1);
  return row ?? null;
}

/** Connected accounts (of one organization when given), for the account collection. */
export function listConnectedIntegrations(db: Db, organizationId?: string) {
  return db
    .select({ integration: integrations, platformName: platforms.name })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(
      and(
        eq(integrations.status, 'CONNECTED'),
        organizationId ? eq(integrations.organizationId, organizationId) : undefined,
      ),
    );
}

/** Published since `since` when given (every published target otherwise). */
const publishedSince = (since: Date | undefined) =>
  since ? gte(postTargets.publishedAt, since) : undefined;

/**
 * The ids of one organization's published targets (published since `since` when given), for
 * "collect now" and "Refresh metrics".
 */
export async function listPublishedTargetIds(db: Db, organizationId: string, since?: Date) {
  const rows = await db
    .select({ id: postTargets.id })
    .from(postTargets)
    .where(
      and(
        eq(postTargets.organizationId, organizationId),
        eq(postTargets.status, 'PUBLISHED'),
        publishedSince(since),
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * One organization's published targets that have a network id (published since `since` when
 * given), per account: what a batch read (X's `GET /2/tweets?ids=`) takes.
 */
export async function listPublishedTargetsByAccount(db: Db, organizationId: string, since?: Date) {
  const rows = await db
    .select({
      id: postTargets.id,
      postId: postTargets.postId,
      externalId: postTargets.externalId,
      publishedAt: postTargets.publishedAt,
      integration: integrations,
      platformName: platforms.name,
    })
    .from(postTargets)
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .innerJoin(integrations, eq(integrations.id, postTargets.integrationId))
    .where(
      and(
        eq(postTargets.organizationId, organizationId),
        eq(integrations.organizationId, organizationId),
        eq(postTargets.status, 'PUBLISHED'),
        isNotNull(postTargets.externalId),
        publishedSince(since),
      ),
    )
    .orderBy(postTargets.integrationId, postTargets.publishedAt);
  const groups = new Map<
    string,
    {
      integration: (typeof rows)[number]['integration'];
      platformName: string;
      targets: Array<{ id: string; postId: string; externalId: string; publishedAt: Date | null }>;
    }
  >();
  for (const r of rows) {
    const group = groups.get(r.integration.id) ?? {
      integration: r.integration,
      platformName: r.platformName,
      targets: [],
    };
    group.targets.push({
      id: r.id,
      postId: r.postId,
      externalId: r.externalId!,
      publishedAt: r.publishedAt,
    });
    groups.set(r.integration.id, group);
  }
  return [...groups.values()];
}

const metricColumns = (v: PostMetricValues | AccountMetricValues) => {
  const pick = (k: string) => (v as unknown as Record<string, number | undefined>)[k] ?? null;
  return pick;
};

export async function insertSnapshot(
  db: Db,
  row: {
    organizationId: string;
    postId: string;
    targetId: string;
    integrationId: string;
    checkpoint: string;
    takenAt: Date;
    values: PostMetricValues;
  },
) {
  const pick = metricColumns(row.values);
  await db.insert(postMetricSnapshots).values({
    organizationId: row.organizationId,
    postId: row.postId,
    targetId: row.targetId,
    integrationId: row.integrationId,
    checkpoint: row.checkpoint,
    takenAt: row.takenAt,
    views: pick('views'),
    reach: pick('reach'),
    likes: pick('likes'),
    comments: pick('comments'),
    shares: pick('shares'),
    saves: pick('saves'),
    clicks: pick('clicks'),
    videoViews: pick('videoViews'),
    watchTimeMs: pick('watchTimeMs'),
    interactions: pick('interactions'),
    raw: row.values.raw,
  });
}

/** One row per account and day: a second collection the same day replaces the first. */
export async function upsertAccountDay(
  db: Db,
  row: {
    organizationId: string;
    integrationId: string;
    day: string;
    at: Date;
    values: AccountMetricValues;
  },
) {
  const pick = metricColumns(row.values);
  const values = {
    followers: pick('followers'),
    views: pick('views'),
    reach: pick('reach'),
    profileViews: pick('profileViews'),
    interactions: pick('interactions'),
    raw: row.values.raw,
    collectedAt: row.at,
  };
  await db
    .insert(accountMetricDays)
    .values({
      organizationId: row.organizationId,
      integrationId: row.integrationId,
      day: row.day,
      ...values,
    })
    .onConflictDoUpdate({
      target: [accountMetricDays.integrationId, accountMetricDays.day],
      set: values,
    });
}

/** Followers of past days the network gave; a day already recorded is left as it is. */
export async function fillFollowerDays(
  db: Db,
  row: {
    organizationId: string;
    integrationId: string;
    at: Date;
    days: Array<{ day: string; followers: number }>;
  },
) {
  await db
    .insert(accountMetricDays)
    .values(
      row.days.map((d) => ({
        organizationId: row.organizationId,
        integrationId: row.integrationId,
        day: d.day,
        followers: d.followers,
        raw: { follower_count_backfill: 1 },
        collectedAt: row.at,
      })),
    )
    .onConflictDoNothing({ target: [accountMetricDays.integrationId, accountMetricDays.day] });
}

export async function getAccountStatus(db: Db, integrationId: string) {
  const [row] = await db
    .select()
    .from(analyticsAccountStatus)
    .where(eq(analyticsAccountStatus.integrationId, integrationId));
  return row ?? null;
}

/** Records how the last read went: stale with a reason (and a back-off), or fresh. */
export async function setAccountStatus(
  db: Db,
  row: {
    integrationId: string;
    organizationId: string;
    now: Date;
    staleReason: string | null;
    backoffUntil?: Date | null;
  },
) {
  const set = row.staleReason
    ? {
        staleReason: row.staleReason,
        staleSince: sql`coalesce(${analyticsAccountStatus.staleSince}, ${row.now})`,
        backoffUntil: row.backoffUntil ?? null,
        updatedAt: row.now,
      }
    : {
        staleReason: null,
        staleSince: null,
        backoffUntil: null,
        lastSuccessAt: row.now,
        updatedAt: row.now,
      };
  await db
    .insert(analyticsAccountStatus)
    .values({
      integrationId: row.integrationId,
      organizationId: row.organizationId,
      staleReason: row.staleReason,
      staleSince: row.staleReason ? row.now : null,
      backoffUntil: row.backoffUntil ?? null,
      lastSuccessAt: row.staleReason ? null : row.now,
      updatedAt: row.now,
    })
    .onConflictDoUpdate({ target: analyticsAccountStatus.integrationId, set });
}

export async function getSettings(db: Db, organizationId: string) {
  const [row] = await db
    .select()
    .from(analyticsSettings)
    .where(eq(analyticsSettings.organizationId, organizationId));
  return row ?? null;
}

/** Stores an organization's X collection switch and monthly read budget. */
export async function saveXSettings(
  db: Db,
  organizationId: string,
  input: { enabled: boolean; monthlyReadBudget: number },
) {
  const set = {
    xEnabled: input.enabled,
    xMonthlyReadBudget: input.monthlyReadBudget,
    updatedAt: new Date(),
  };
  await db
    .insert(analyticsSettings)
    .values({ organizationId, ...set })
    .onConflictDoUpdate({ target: analyticsSettings.organizationId, set });
}

/**
 * Takes `reads` from this month's X budget when X collection is on and the budget has room;
 * false otherwise. One guarded UPDATE, so two workers cannot overspend together; a new month
 * starts the count again.
 */
export async function takeXReads(db: Db, organizationId: string, month: string, reads: number) {
  const rows = await db
    .update(analyticsSettings)
    .set({
      xReadsMonth: month,
      xReadsUsed: sql`case when ${analyticsSettings.xReadsMonth} = ${month} then ${analyticsSettings.xReadsUsed} else 0 end + ${reads}`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(analyticsSettings.organizationId, organizationId),
        eq(analyticsSettings.xEnabled, true),
        or(
          isNull(analyticsSettings.xReadsMonth),
          sql`${analyticsSettings.xReadsMonth} <> ${month}`,
          lt(
            sql`${analyticsSettings.xReadsUsed} + ${reads}`,
            sql`${analyticsSettings.xMonthlyReadBudget} + 1`,
          ),
        ),
      ),
    )
    .returning({ used: analyticsSettings.xReadsUsed });
  return rows.length > 0;
}

/**
 * Counts reads already made against this month's X budget (the inbox's polls: X bills what it
 * returned, whatever the budget says). One UPDATE; a new month starts the count again.
 */
export async function chargeXReads(db: Db, organizationId: string, month: string, reads: number) {
  if (reads <= 0) return;
  await db
    .update(analyticsSettings)
    .set({
      xReadsMonth: month,
      xReadsUsed: sql`case when ${analyticsSettings.xReadsMonth} = ${month} then ${analyticsSettings.xReadsUsed} else 0 end + ${reads}`,
      updatedAt: new Date(),
    })
    .where(eq(analyticsSettings.organizationId, organizationId));
}

/**
 * Claims "Refresh metrics" for an organization at `now`, in one guarded upsert: only when it
 * was never used or last used at or before `allowedIfBefore` (the cooldown). Two processes
 * claiming at once cannot both win. True when claimed.
 */
export async function claimRefresh(
  db: Db,
  organizationId: string,
  now: Date,
  allowedIfBefore: Date,
) {
  const rows = await db
    .insert(analyticsSettings)
    .values({ organizationId, refreshedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: analyticsSettings.organizationId,
      set: { refreshedAt: now, updatedAt: now },
      setWhere: or(
        isNull(analyticsSettings.refreshedAt),
        lte(analyticsSettings.refreshedAt, allowedIfBefore),
      ),
    })
    .returning({ organizationId: analyticsSettings.organizationId });
  return rows.length > 0;
}

/** Gives back a claim that did not get to read anything (a failure): the next try may go at once. */
export async function releaseRefresh(db: Db, organizationId: string, claimedAt: Date) {
  await db
    .update(analyticsSettings)
    .set({ refreshedAt: null })
    .where(
      and(
        eq(analyticsSettings.organizationId, organizationId),
        eq(analyticsSettings.refreshedAt, claimedAt),
      ),
    );
}

/**
 * Moves every snapshot job still waiting (created, or waiting for a retry) for a target of the
 * network `platformName` `ms` earlier in pg-boss's job table; answers how many moved. A job
 * moved into the past is due: the workers take it at their next poll.
 */
export async function bringSnapshotsForward(
  boss: PgBoss,
  queue: string,
  platformName: string,
  ms: number,
): Promise<number> {
  const { rows } = (await boss.getDb().executeSql(
    `update pgboss.job j
        set start_after = j.start_after - make_interval(secs => $3::float8)
       from post_targets t
       join platforms p on p.id = t.platform_id
      where j.name = $1
        and j.state in ('created', 'retry')
        and t.id::text = j.data->>'targetId'
        and p.name = $2
      returning j.id`,
    [queue, platformName, ms / 1000],
  )) as { rows: unknown[] };
  return rows.length;
}
