import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';

const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`);

export interface TargetRow {
  targetId: string;
  integrationId: string | null;
  platformId: string;
  platform: string;
  accountName: string | null;
  publishedAt: string | null;
  takenAt: string | null;
  views: number | null;
  reach: number | null;
  likes: number | null;
  comments: number | null;
  shares: number | null;
  saves: number | null;
  clicks: number | null;
  interactions: number | null;
}

export interface SeriesRow {
  targetId: string;
  takenAt: string;
  views: number | null;
  interactions: number | null;
}

export async function postExists(db: Db, organizationId: string, postId: string) {
  const post = await rowsOf<{ id: string }>(
    db,
    sql`select id from posts where id = ${postId} and organization_id = ${organizationId}`,
  );
  return post.length > 0;
}

/** The post's published targets, each with its latest reading (null figures when none). */
export function publishedTargetsWithLatest(db: Db, organizationId: string, postId: string) {
  return rowsOf<TargetRow>(
    db,
    sql`select t.id as "targetId", t.integration_id as "integrationId",
          t.platform_id as "platformId", p.name as platform, t.account_name as "accountName",
          ${iso('t.published_at')} as "publishedAt", ${iso('s.taken_at')} as "takenAt",
          s.views::float8 as views, s.reach::float8 as reach, s.likes::float8 as likes,
          s.comments::float8 as comments, s.shares::float8 as shares, s.saves::float8 as saves,
          s.clicks::float8 as clicks, s.interactions::float8 as interactions
        from post_targets t
        join platforms p on p.id = t.platform_id
        left join post_metric_latest s
          on s.target_id = t.id and s.organization_id = t.organization_id
        where t.post_id = ${postId} and t.organization_id = ${organizationId}
          and t.status = 'PUBLISHED'
        order by t.published_at, p.name, t.account_name, t.id`,
  );
}

/** Every reading of the post's published targets, oldest first. */
export function publishedSeries(db: Db, organizationId: string, postId: string) {
  return rowsOf<SeriesRow>(
    db,
    sql`select s.target_id as "targetId", ${iso('s.taken_at')} as "takenAt",
          s.views::float8 as views, s.interactions::float8 as interactions
        from post_metric_snapshots s
        join post_targets t on t.id = s.target_id
        where t.post_id = ${postId} and t.organization_id = ${organizationId}
          and s.organization_id = ${organizationId} and t.status = 'PUBLISHED'
        order by s.taken_at, s.id`,
  );
}
