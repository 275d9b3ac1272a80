/**
 * One post's figures per network for its details page (docs/analytics.md#post-metrics): each
 * published target's latest reading and every reading as a small series. Filtered by
 * organization, so another organization's post reads as unknown.
 */
import { sql } from 'drizzle-orm';
import type { PostMetrics } from '@herald/contract';
import { rowsOf, type Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { ENGAGEMENT_FORMULA } from './analytics-overview.service.js';

const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`);

interface TargetRow {
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

interface SeriesRow {
  targetId: string;
  takenAt: string;
  views: number | null;
  interactions: number | null;
}

/** interactions ÷ views, else ÷ reach (the one formula of docs/analytics.md#engagement-rate). */
export function engagementRate(
  interactions: number | null,
  views: number | null,
  reach: number | null,
): number | null {
  const base = views ?? reach;
  if (interactions === null || base === null || base === 0) return null;
  return interactions / base;
}

export async function getPostMetrics(
  db: Db,
  organizationId: string,
  postId: string,
): Promise<PostMetrics> {
  const post = await rowsOf<{ id: string }>(
    db,
    sql`select id from posts where id = ${postId} and organization_id = ${organizationId}`,
  );
  if (!post.length)
    throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');

  const targets = await rowsOf<TargetRow>(
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
  const series = targets.length
    ? await rowsOf<SeriesRow>(
        db,
        sql`select s.target_id as "targetId", ${iso('s.taken_at')} as "takenAt",
              s.views::float8 as views, s.interactions::float8 as interactions
            from post_metric_snapshots s
            join post_targets t on t.id = s.target_id
            where t.post_id = ${postId} and t.organization_id = ${organizationId}
              and s.organization_id = ${organizationId} and t.status = 'PUBLISHED'
            order by s.taken_at, s.id`,
      )
    : [];

  return {
    engagementFormula: ENGAGEMENT_FORMULA,
    targets: targets.map((row) => ({
      targetId: row.targetId,
      integrationId: row.integrationId,
      platformId: row.platformId,
      platform: row.platform,
      accountName: row.accountName,
      publishedAt: row.publishedAt,
      takenAt: row.takenAt,
      latest: {
        views: row.views,
        reach: row.reach,
        likes: row.likes,
        comments: row.comments,
        shares: row.shares,
        saves: row.saves,
        clicks: row.clicks,
        interactions: row.interactions,
        engagementRate: engagementRate(row.interactions, row.views, row.reach),
      },
      series: series
        .filter((point) => point.targetId === row.targetId)
        .map(({ takenAt, views, interactions }) => ({ takenAt, views, interactions })),
    })),
  };
}
