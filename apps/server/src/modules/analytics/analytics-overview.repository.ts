/**
 * The analytics screen's reads (docs/analytics.md#api). Every query is filtered by organization
 * id; the optional network and account filters narrow it further. Sums skip NULLs, so a metric
 * no network gave stays NULL instead of becoming 0.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export interface OverviewFilter {
  organizationId: string;
  platformIds?: string[];
  integrationIds?: string[];
}

const list = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** The filter on a post target (alias `t`). */
export function targetFilter(f: OverviewFilter): SQL {
  const parts: SQL[] = [sql`t.organization_id = ${f.organizationId}`];
  if (f.platformIds?.length) parts.push(sql`t.platform_id in (${list(f.platformIds)})`);
  if (f.integrationIds?.length) parts.push(sql`t.integration_id in (${list(f.integrationIds)})`);
  return sql.join(parts, sql` and `);
}

/** The filter on a connected account (alias `i`). */
function integrationFilter(f: OverviewFilter): SQL {
  const parts: SQL[] = [sql`i.organization_id = ${f.organizationId}`];
  if (f.platformIds?.length) parts.push(sql`i.platform_id in (${list(f.platformIds)})`);
  if (f.integrationIds?.length) parts.push(sql`i.id in (${list(f.integrationIds)})`);
  return sql.join(parts, sql` and `);
}

export const rowsOf = async <T>(db: Db, query: SQL) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

export interface TargetReading {
  targetId: string;
  postId: string;
  platformId: string;
  platform: string;
  accountName: string | null;
  publishedAt: string | null;
  permalink: string | null;
  views: number | null;
  reach: number | null;
  interactions: number | null;
  takenAt: string | null;
}

/**
 * The targets published in [start, end) with their latest reading taken before `cutoff`: what
 * the screen showed for that period when it ended.
 */
export function listTargetReadings(
  db: Db,
  f: OverviewFilter,
  start: Date,
  end: Date,
  cutoff: Date,
) {
  return rowsOf<TargetReading>(
    db,
    sql`select t.id as "targetId", t.post_id as "postId", t.platform_id as "platformId",
          p.name as platform, t.account_name as "accountName",
          to_char(t.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "publishedAt",
          t.permalink,
          s.views::float8 as views, s.reach::float8 as reach,
          s.interactions::float8 as interactions,
          to_char(s.taken_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "takenAt"
        from post_targets t
        join platforms p on p.id = t.platform_id
        left join lateral (
          select views, reach, interactions, taken_at from post_metric_snapshots s
          where s.target_id = t.id and s.organization_id = t.organization_id
            and s.taken_at < ${cutoff.toISOString()}::timestamptz
          order by s.taken_at desc limit 1
        ) s on true
        where ${targetFilter(f)} and t.status = 'PUBLISHED'
          and t.published_at >= ${start.toISOString()}::timestamptz
          and t.published_at < ${end.toISOString()}::timestamptz`,
  );
}

/**
 * Views and interactions gained per UTC day in [start, end): each reading minus the target's
 * reading before it, summed on the day the reading was taken. Read from the rollup
 * `analytics_daily_gains` (kept by triggers on the readings, docs/analytics.md#rollup): a few
 * rows per day instead of every reading of the organization. The network filter goes through the
 * accounts of that network.
 */
export function listDailyGains(db: Db, f: OverviewFilter, start: Date, end: Date) {
  const parts: SQL[] = [sql`d.organization_id = ${f.organizationId}`];
  if (f.platformIds?.length)
    parts.push(
      sql`d.integration_id in (select i.id from integrations i
            where i.organization_id = ${f.organizationId} and i.platform_id in (${list(f.platformIds)}))`,
    );
  if (f.integrationIds?.length) parts.push(sql`d.integration_id in (${list(f.integrationIds)})`);
  return rowsOf<{ day: string; views: number | null; interactions: number | null }>(
    db,
    sql`select to_char(d.day, 'YYYY-MM-DD') as day,
          sum(d.views)::float8 as views, sum(d.interactions)::float8 as interactions
        from analytics_daily_gains d
        where ${sql.join(parts, sql` and `)} and d.readings > 0
          and d.day >= ${start.toISOString().slice(0, 10)}::date
          and d.day < ${end.toISOString().slice(0, 10)}::date
        group by 1 order by 1`,
  );
}

/** Daily account figures from `fromDay` to `toDay` (inclusive) of the filtered accounts. */
export function listAccountDays(db: Db, f: OverviewFilter, fromDay: string, toDay: string) {
  return rowsOf<{ integrationId: string; day: string; followers: number | null }>(
    db,
    sql`select d.integration_id as "integrationId", to_char(d.day, 'YYYY-MM-DD') as day,
          d.followers::float8 as followers
        from account_metric_days d
        join integrations i on i.id = d.integration_id
        where d.organization_id = ${f.organizationId} and ${integrationFilter(f)}
          and d.day >= ${fromDay}::date and d.day <= ${toDay}::date
        order by d.integration_id, d.day`,
  );
}

/** The filtered accounts with where reading their metrics stands. */
export function listAccounts(db: Db, f: OverviewFilter) {
  return rowsOf<{
    integrationId: string;
    name: string | null;
    username: string | null;
    platform: string;
    status: string;
    staleReason: string | null;
    staleSince: string | null;
    lastSuccessAt: string | null;
  }>(
    db,
    sql`select i.id as "integrationId", i.name, i.username, p.name as platform, i.status,
          a.stale_reason as "staleReason",
          to_char(a.stale_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "staleSince",
          to_char(a.last_success_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "lastSuccessAt"
        from integrations i
        join platforms p on p.id = i.platform_id
        left join analytics_account_status a
          on a.integration_id = i.id and a.organization_id = i.organization_id
        where ${integrationFilter(f)}
        order by p.name, coalesce(i.name, i.username, ''), i.id`,
  );
}

/** The organization's analytics as a whole, so the screen can say what to do first. */
export async function getOrgStatus(db: Db, organizationId: string) {
  const [row] = await rowsOf<{
    connectedAccounts: number;
    publishedTargets: number;
    hasReadings: boolean;
    firstPublishedAt: string | null;
  }>(
    db,
    sql`select
          (select count(*)::int from integrations
            where organization_id = ${organizationId} and status = 'CONNECTED') as "connectedAccounts",
          (select count(*)::int from post_targets
            where organization_id = ${organizationId} and status = 'PUBLISHED') as "publishedTargets",
          exists (select 1 from post_metric_snapshots
            where organization_id = ${organizationId}) as "hasReadings",
          (select to_char(min(published_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            from post_targets
            where organization_id = ${organizationId} and status = 'PUBLISHED') as "firstPublishedAt"`,
  );
  return row!;
}

/** Which of `ids` are networks Herald knows. */
export async function findPlatformIds(db: Db, ids: string[]) {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`select id from platforms where id in (${list(ids)})`,
  );
  return new Set(rows.map((r) => r.id));
}

/** Which of `ids` are accounts of this organization. */
export async function findIntegrationIds(db: Db, organizationId: string, ids: string[]) {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`select id from integrations where organization_id = ${organizationId} and id in (${list(ids)})`,
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * The title and the first 280 characters of the text of `postIds` (of this organization): only
 * the top posts need them, so the range's thousands of readings are read without.
 */
export function listPostTexts(db: Db, organizationId: string, postIds: string[]) {
  if (!postIds.length) return Promise.resolve([]);
  return rowsOf<{ postId: string; title: string | null; text: string }>(
    db,
    sql`select po.id as "postId", po.title, left(po.content, 280) as text
        from posts po
        where po.organization_id = ${organizationId} and po.id in (${list(postIds)})`,
  );
}

/**
 * The first picture of each of `postIds` (of this organization): an image's own file or its
 * thumbnail, a video's poster frame.
 */
export function listPostThumbnails(db: Db, organizationId: string, postIds: string[]) {
  if (!postIds.length) return Promise.resolve([]);
  return rowsOf<{ postId: string; key: string | null }>(
    db,
    sql`select distinct on (m.post_id) m.post_id as "postId",
          case when m.kind = 'image' then coalesce(m.thumbnail_key, m.storage_key)
               else m.thumbnail_key end as key
        from post_media m
        where m.organization_id = ${organizationId} and m.post_id in (${list(postIds)})
        order by m.post_id, m.position`,
  );
}
