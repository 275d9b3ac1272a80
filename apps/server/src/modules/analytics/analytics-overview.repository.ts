/**
 * The analytics screen's reads (docs/analytics.md#api). Every query is filtered by organization
 * id; the optional network and account filters narrow it further. Sums skip NULLs, so a metric
 * no network gave stays NULL instead of becoming 0.
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';

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

/** The metric columns a reading has (`post_metric_snapshots` and `post_metric_latest`). */
export type ReadingColumn =
  | 'views'
  | 'reach'
  | 'likes'
  | 'comments'
  | 'shares'
  | 'saves'
  | 'clicks'
  | 'video_views'
  | 'interactions';

/**
 * Each target's (alias `t`) latest reading taken before `cutoff` (docs/analytics.md#latest-reading).
 * The target's row in `post_metric_latest` (alias `l`) is that reading whenever it was taken
 * before the cutoff — always for a range ending today. Only a target read again since (a past
 * range) searches its readings for the one before (alias `s`); the search's first condition
 * names only the outer row, so PostgreSQL skips it entirely for the others. Ties on `taken_at`
 * go to the greater id, as in `post_metric_latest`.
 *
 * `join` goes after the target's other joins; `col` and the others pick from `l` or `s`.
 */
export function readingBefore(cutoff: Date, columns: readonly ReadingColumn[]) {
  const at = sql`${cutoff.toISOString()}::timestamptz`;
  const fresh = sql`l.taken_at < ${at}`;
  const col = (c: ReadingColumn | 'taken_at') =>
    sql`case when ${fresh} then l.${sql.raw(c)} else s.${sql.raw(c)} end`;
  return {
    join: sql`left join post_metric_latest l
          on l.target_id = t.id and l.organization_id = t.organization_id
        left join lateral (
          select ${sql.raw(columns.map((c) => `s.${c}`).join(', '))}, s.taken_at
          from post_metric_snapshots s
          where l.taken_at >= ${at}
            and s.target_id = t.id and s.organization_id = t.organization_id
            and s.taken_at < ${at}
          order by s.taken_at desc, s.id desc limit 1
        ) s on true`,
    col,
    /** When the reading was taken, ISO 8601 UTC; NULL when the target has none before the cutoff. */
    takenAt: sql`to_char(${col('taken_at')} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
    /** The engagement rate's denominator (views, else reach) where interactions are given. */
    engagementBase: sql`case when ${fresh} then l.engagement_base
          when s.interactions is not null then coalesce(s.views, s.reach) end`,
  };
}

/** The published targets of [start, end) the filter keeps (alias `t`). */
const publishedIn = (f: OverviewFilter, start: Date, end: Date) =>
  sql`${targetFilter(f)} and t.status = 'PUBLISHED'
    and t.published_at >= ${start.toISOString()}::timestamptz
    and t.published_at < ${end.toISOString()}::timestamptz`;

/** The sums behind the KPIs of a set of targets (docs/analytics.md#overview). */
export interface ReadingTotals {
  /** Σ of the present values; NULL when no target gave the metric. */
  views: number | null;
  reach: number | null;
  interactions: number | null;
  /** The engagement rate's numerator and denominator, over the targets having both. */
  rateInteractions: number | null;
  rateBase: number | null;
  /** Distinct posts (a post sent to two networks counts once). */
  posts: number;
}

/**
 * The targets published in [start, end), each with its latest reading taken before `cutoff`
 * (what the screen showed for that period when it ended), summed up: over all of them
 * (`platformId` NULL) and, with `byNetwork`, per network too. Summed in the database, so a
 * period of thousands of targets sends back a few rows.
 */
export function sumTargetReadings(
  db: Db,
  f: OverviewFilter,
  start: Date,
  end: Date,
  cutoff: Date,
  byNetwork: boolean,
) {
  const r = readingBefore(cutoff, ['views', 'reach', 'interactions']);
  return rowsOf<ReadingTotals & { platformId: string | null; platform: string | null }>(
    db,
    sql`with r as (
          select t.post_id, t.platform_id, ${r.col('views')} as views, ${r.col('reach')} as reach,
            ${r.col('interactions')} as interactions, ${r.engagementBase} as base
          from post_targets t
          ${r.join}
          where ${publishedIn(f, start, end)}
        )
        select ${byNetwork ? sql`r.platform_id` : sql`null::uuid`} as "platformId",
          ${byNetwork ? sql`min(p.name)` : sql`null::text`} as platform,
          sum(r.views)::float8 as views, sum(r.reach)::float8 as reach,
          sum(r.interactions)::float8 as interactions,
          sum(r.interactions) filter (where r.base is not null)::float8 as "rateInteractions",
          sum(r.base)::float8 as "rateBase",
          count(distinct r.post_id)::int as posts
        from r
        ${byNetwork ? sql`left join platforms p on p.id = r.platform_id group by grouping sets ((r.platform_id), ())` : sql``}`,
  );
}

/** A target with its reading, as the top posts list it. */
export interface TargetReading {
  targetId: string;
  /** Herald's post; null for a post published outside Herald (analytics-external.repository.ts). */
  postId: string | null;
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

export type TopPostsSort = 'views' | 'interactions' | 'engagement';

/**
 * The `limit` best targets published in [start, end) by `sort`, among those with a reading
 * before `cutoff` that gives the sorted figure; ties by target id.
 */
export function listTopTargets(
  db: Db,
  f: OverviewFilter,
  start: Date,
  end: Date,
  cutoff: Date,
  sort: TopPostsSort,
  limit: number,
) {
  const r = readingBefore(cutoff, ['views', 'reach', 'interactions']);
  const value =
    sort === 'views'
      ? sql`r.views`
      : sort === 'interactions'
        ? sql`r.interactions`
        : sql`case when r.base > 0 then r.interactions::float8 / r.base::float8 end`;
  return rowsOf<TargetReading>(
    db,
    sql`with r as (
          select t.id, t.post_id, t.platform_id, t.account_name, t.published_at, t.permalink,
            ${r.col('views')} as views, ${r.col('reach')} as reach,
            ${r.col('interactions')} as interactions, ${r.engagementBase} as base,
            ${r.col('taken_at')} as taken_at
          from post_targets t
          ${r.join}
          where ${publishedIn(f, start, end)}
        )
        select r.id as "targetId", r.post_id as "postId", r.platform_id as "platformId",
          p.name as platform, r.account_name as "accountName",
          to_char(r.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "publishedAt",
          r.permalink, r.views::float8 as views, r.reach::float8 as reach,
          r.interactions::float8 as interactions,
          to_char(r.taken_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "takenAt"
        from r
        join platforms p on p.id = r.platform_id
        where r.taken_at is not null and ${value} is not null
        order by ${value} desc, r.id
        limit ${limit}`,
  );
}

/**
 * For the best-times map: the targets published in [start, end) that have a reading before
 * `cutoff`, each as its publishing instant (ms since the epoch), its interactions and its
 * engagement base — the three numbers the map needs, so thousands of targets stay a light read.
 */
export function listReadTargetSlots(
  db: Db,
  f: OverviewFilter,
  start: Date,
  end: Date,
  cutoff: Date,
) {
  const r = readingBefore(cutoff, ['views', 'reach', 'interactions']);
  return rowsOf<{ publishedMs: number; interactions: number | null; base: number | null }>(
    db,
    sql`select (extract(epoch from t.published_at) * 1000)::float8 as "publishedMs",
          ${r.col('interactions')}::float8 as interactions, ${r.engagementBase}::float8 as base
        from post_targets t
        ${r.join}
        where ${publishedIn(f, start, end)} and ${r.col('taken_at')} is not null`,
  );
}

/**
 * Views and interactions gained per day in [start, end): each reading minus the target's reading
 * before it, summed on the day the reading was taken. `dayStarts` are the first instants of the
 * range's days in the reader's zone, in order (the first is `start`); row `day` is the index of
 * the day in them. Read from the rollup `analytics_daily_gains` (kept by triggers on the
 * readings, docs/analytics.md#rollup), whose quarter hours each fall in exactly one day of any
 * zone: a few rows per day instead of every reading of the organization. The network filter goes
 * through the accounts of that network.
 */
export function listDailyGains(db: Db, f: OverviewFilter, dayStarts: Date[], end: Date) {
  const parts: SQL[] = [sql`d.organization_id = ${f.organizationId}`];
  if (f.platformIds?.length)
    parts.push(
      sql`d.integration_id in (select i.id from integrations i
            where i.organization_id = ${f.organizationId} and i.platform_id in (${list(f.platformIds)}))`,
    );
  if (f.integrationIds?.length) parts.push(sql`d.integration_id in (${list(f.integrationIds)})`);
  const starts = `{${dayStarts.map((d) => d.toISOString()).join(',')}}`;
  return rowsOf<{ day: number; views: number | null; interactions: number | null }>(
    db,
    sql`select width_bucket(d.bucket, ${starts}::timestamptz[]) - 1 as day,
          sum(d.views)::float8 as views, sum(d.interactions)::float8 as interactions
        from analytics_daily_gains d
        where ${sql.join(parts, sql` and `)} and d.readings > 0
          and d.bucket >= ${dayStarts[0]!.toISOString()}::timestamptz
          and d.bucket < ${end.toISOString()}::timestamptz
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
          exists (select 1 from post_metric_latest
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
