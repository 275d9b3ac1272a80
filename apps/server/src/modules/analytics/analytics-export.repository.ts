/** The CSV export's read: one page of published targets with their reading, by organization. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf, targetFilter, type OverviewFilter } from './analytics-overview.repository.js';

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
  return rowsOf<ExportRow>(
    db,
    sql`select t.id as "targetId", t.post_id as "postId",
          to_char(t.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "publishedAt",
          t.published_at::text as "publishedKey",
          p.name as platform, coalesce(t.account_name, i.name, i.username) as "accountName",
          po.title, po.content as text, t.permalink,
          s.views::float8 as views, s.reach::float8 as reach, s.likes::float8 as likes,
          s.comments::float8 as comments, s.shares::float8 as shares, s.saves::float8 as saves,
          s.clicks::float8 as clicks, s.video_views::float8 as "videoViews",
          s.interactions::float8 as interactions,
          to_char(s.taken_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "takenAt"
        from post_targets t
        join platforms p on p.id = t.platform_id
        join posts po on po.id = t.post_id and po.organization_id = t.organization_id
        left join integrations i on i.id = t.integration_id and i.organization_id = t.organization_id
        left join lateral (
          select views, reach, likes, comments, shares, saves, clicks, video_views, interactions,
            taken_at
          from post_metric_snapshots s
          where s.target_id = t.id and s.organization_id = t.organization_id
            and s.taken_at < ${cutoff.toISOString()}::timestamptz
          order by s.taken_at desc limit 1
        ) s on true
        where ${targetFilter(f)} and t.status = 'PUBLISHED'
          and t.published_at >= ${start.toISOString()}::timestamptz
          and t.published_at < ${end.toISOString()}::timestamptz
          ${afterClause}
        order by t.published_at, t.id
        limit ${limit}`,
  );
}
