/**
 * One post's figures per network for its details page (docs/analytics.md#post-metrics): each
 * published target's latest reading and every reading as a small series. Filtered by
 * organization, so another organization's post reads as unknown.
 */
import type { PostMetrics } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { ENGAGEMENT_FORMULA } from './analytics-overview.service.js';
import * as repo from './post-metrics.repository.js';

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
  if (!(await repo.postExists(db, organizationId, postId)))
    throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
  const targets = await repo.publishedTargetsWithLatest(db, organizationId, postId);
  const series = targets.length ? await repo.publishedSeries(db, organizationId, postId) : [];

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
