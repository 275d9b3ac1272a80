import { createGraphClient } from '../meta/graph-client.js';
import { readGraphInsights } from '../meta/insights.js';
import type { MetaUrls } from '../meta/urls.js';
import type { AdapterSettings, MetricsAdapter } from '../types.js';

/**
 * Media metrics asked of `/{media}/insights` (docs/analytics.md#instagram). `views` replaced
 * `impressions`, `plays` and `video_views`, which Instagram refuses since 2025-04-21.
 */
export const INSTAGRAM_MEDIA_METRICS = [
  'views',
  'reach',
  'likes',
  'comments',
  'shares',
  'saved',
  'total_interactions',
] as const;

/** Account metrics asked of `/{ig-user}/insights?period=day&metric_type=total_value`. */
export const INSTAGRAM_ACCOUNT_METRICS = ['views', 'reach', 'total_interactions'] as const;

/** Instagram professional account analytics (`instagram_manage_insights`). */
export function createInstagramMetrics(settings: AdapterSettings<MetaUrls>): MetricsAdapter {
  const graph = createGraphClient(settings, 'Instagram');
  return {
    billedReads: false,
    async postMetrics(account, post) {
      const raw = await readGraphInsights(
        graph,
        post.externalId,
        account.tokens.accessToken,
        INSTAGRAM_MEDIA_METRICS,
      );
      return {
        views: raw.views,
        reach: raw.reach,
        likes: raw.likes,
        comments: raw.comments,
        shares: raw.shares,
        saves: raw.saved,
        interactions: raw.total_interactions,
        raw,
      };
    },
    async accountMetrics(account) {
      const token = account.tokens.accessToken;
      const raw = await readGraphInsights(
        graph,
        account.externalId,
        token,
        INSTAGRAM_ACCOUNT_METRICS,
        { period: 'day', metric_type: 'total_value' },
      );
      const user = await graph.get<{ followers_count?: number }>(account.externalId, token, {
        fields: 'followers_count',
      });
      if (typeof user.followers_count === 'number') raw.followers_count = user.followers_count;
      return {
        followers: raw.followers_count,
        views: raw.views,
        reach: raw.reach,
        interactions: raw.total_interactions,
        raw,
      };
    },
  };
}
