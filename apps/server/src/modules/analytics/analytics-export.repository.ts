/** The CSV export's read: one page of published targets with their reading, by organization. */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import {
  readingBefore,
  targetFilter,
  type OverviewFilter,
  type ReadingColumn,
} from './analytics-overview.repository.js';

export interface ExportRow {
  targetId: string;
  postId: string;
  publishedAt: string;
  /** The raw timestamp, the key of the next page. */
  publishedKey: string;
  platform: string;
  accountName: string | null;
  title: string | null;
  text: string;
  permalink: string | null;
  views: number | null;
  reach: number | null;
  likes: number | null;
  comments: number | null;
  shares: number | null;
  saves: number | null;
  clicks: number | null;
  videoViews: number | null;
  interactions: number | null;
  takenAt: string | null;
  /** The clicks on its short links (docs/analytics.md#short-links); null: it has none. */
  shortLinkClicks: number | null;
}

/**
 * Up to `limit` targets published in [start, end), after `after` in (published_at, id) order,
 * each with its latest reading taken before `cutoff` (none: the metric columns are NULL).
 * Paging by key keeps every query small however large the export.
 */
export function listExportPage(
  db: Db,
  f: OverviewFilter,
  start: Date,
  end: Date,
  cutoff: Date,
  after: { publishedKey: string; targetId: string } | null,
  limit: number,
) {
  const afterClause = after
    ? sql`and (t.published_at, t.id) > (${after.publishedKey}::timestamptz, ${after.targetId}::uuid)`
    : sql``;
  const r = readingBefore(cutoff, [
    'views',
    'reach',
    'likes',
    'comments',
    'shares',
    'saves',
    'clicks',
    'video_views',
    'interactions',
  ]);
  const n = (c: ReadingColumn) => sql`${r.col(c)}::float8`;
  return rowsOf<ExportRow>(
    db,
    sql`select t.id as "targetId", t.post_id as "postId",
          to_char(t.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "publishedAt",
          t.published_at::text as "publishedKey",
          p.name as platform, coalesce(t.account_name, i.name, i.username) as "accountName",
          po.title, po.content as text, t.permalink,
          ${n('views')} as views, ${n('reach')} as reach, ${n('likes')} as likes,
          ${n('comments')} as comments, ${n('shares')} as shares, ${n('saves')} as saves,
          ${n('clicks')} as clicks, ${n('video_views')} as "videoViews",
          ${n('interactions')} as interactions, ${r.takenAt} as "takenAt",
          (select sum(s.clicks)::float8 from short_links s
            where s.target_id = t.id and s.organization_id = t.organization_id) as "shortLinkClicks"
        from post_targets t
        join platforms p on p.id = t.platform_id
        join posts po on po.id = t.post_id and po.organization_id = t.organization_id
        left join integrations i on i.id = t.integration_id and i.organization_id = t.organization_id
        ${r.join}
        where ${targetFilter(f)} and t.status = 'PUBLISHED'
          and t.published_at >= ${start.toISOString()}::timestamptz
          and t.published_at < ${end.toISOString()}::timestamptz
          ${afterClause}
        order by t.published_at, t.id
        limit ${limit}`,
  );
}

export interface AccountExportRow {
  integrationId: string;
  day: string;
  platform: string;
  accountName: string | null;
  followers: number | null;
  followersChange: number | null;
  views: number | null;
  reach: number | null;
  profileViews: number | null;
  interactions: number | null;
}

/**
 * Up to `limit` account days in [fromDay, toDay], after `after` in (day, account id) order, of
 * the organization's accounts the filter keeps. `followersChange` is the count minus the
 * account's previous recorded day (also before the range); NULL when either is missing.
 */
export function listAccountExportPage(
  db: Db,
  f: OverviewFilter,
  fromDay: string,
  toDay: string,
  after: { day: string; integrationId: string } | null,
  limit: number,
) {
  const parts = [
    sql`d.organization_id = ${f.organizationId}`,
    sql`i.organization_id = ${f.organizationId}`,
  ];
  if (f.platformIds?.length)
    parts.push(
      sql`i.platform_id in (${sql.join(
        f.platformIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
  if (f.integrationIds?.length)
    parts.push(
      sql`i.id in (${sql.join(
        f.integrationIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
  if (after)
    parts.push(sql`(d.day, d.integration_id) > (${after.day}::date, ${after.integrationId}::uuid)`);
  return rowsOf<AccountExportRow>(
    db,
    sql`select d.integration_id as "integrationId", to_char(d.day, 'YYYY-MM-DD') as day,
          p.name as platform, coalesce(i.name, i.username) as "accountName",
          d.followers::float8 as followers,
          (d.followers - (select d2.followers from account_metric_days d2
              where d2.integration_id = d.integration_id and d2.day < d.day
              order by d2.day desc limit 1))::float8 as "followersChange",
          d.views::float8 as views, d.reach::float8 as reach,
          d.profile_views::float8 as "profileViews", d.interactions::float8 as interactions
        from account_metric_days d
        join integrations i on i.id = d.integration_id
        join platforms p on p.id = i.platform_id
        where ${sql.join(parts, sql` and `)}
          and d.day >= ${fromDay}::date and d.day <= ${toDay}::date
        order by d.day, d.integration_id
        limit ${limit}`,
  );
}
