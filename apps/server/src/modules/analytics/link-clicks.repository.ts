/** The clicks on short links (docs/analytics.md#short-links), per published target. */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { targetFilter, type OverviewFilter } from './analytics-overview.repository.js';

export interface LinkClickRow {
  targetId: string;
  postId: string;
  title: string | null;
  text: string;
  platform: string;
  accountName: string | null;
  publishedAt: string | null;
  code: string;
  url: string;
  clicks: number;
}

/**
 * Every short link of the targets published in [start, end) that the filter keeps, most recent
 * publication first, links in the order of their text; at most `limit` targets.
 */
export function listLinkClicks(db: Db, f: OverviewFilter, start: Date, end: Date, limit: number) {
  return rowsOf<LinkClickRow>(
    db,
    sql`with chosen as (
          select t.id, t.post_id, t.platform_id, t.integration_id, t.account_name, t.published_at
          from post_targets t
          where ${targetFilter(f)} and t.status = 'PUBLISHED'
            and t.published_at >= ${start.toISOString()}::timestamptz
            and t.published_at < ${end.toISOString()}::timestamptz
            and exists (select 1 from short_links s
              where s.target_id = t.id and s.organization_id = t.organization_id)
          order by t.published_at desc, t.id
          limit ${limit}
        )
        select t.id as "targetId", t.post_id as "postId", po.title, po.content as text,
          p.name as platform, coalesce(t.account_name, i.name, i.username) as "accountName",
          to_char(t.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "publishedAt",
          s.code, s.url, s.clicks
        from chosen t
        join short_links s on s.target_id = t.id and s.organization_id = ${f.organizationId}
        join posts po on po.id = t.post_id and po.organization_id = ${f.organizationId}
        join platforms p on p.id = t.platform_id
        left join integrations i on i.id = t.integration_id and i.organization_id = ${f.organizationId}
        order by t.published_at desc, t.id, s.position`,
  );
}
