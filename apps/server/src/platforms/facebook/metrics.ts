import { createGraphClient } from '../meta/graph-client.js';
import { readGraphInsights } from '../meta/insights.js';
import type { MetaUrls } from '../meta/urls.js';
import { type AdapterSettings, listedSince, type MetricsAdapter, sumPresent } from '../types.js';

/**
 * Page post metrics asked of `/{post}/insights` (docs/analytics.md#facebook). No `*impressions*`
 * and no `page_fans*`: Meta removed them and answers "invalid metric" for the whole call.
 */
export const FACEBOOK_POST_METRICS = [
  'post_media_view',
  'post_total_media_view_unique',
  'post_reactions_by_type_total',
  'post_clicks',
] as const;

/** Page metrics asked of `/{page}/insights?period=day`; followers come from the Page node. */
export const FACEBOOK_PAGE_METRICS = [
  'page_media_view',
  'page_total_media_view_unique',
  'page_post_engagements',
  'page_views_total',
] as const;

/**
 * The post node's counts that insights do not give: `comments.summary(true).limit(0)` (the
 * count without the comments) and `shares` (left out by Graph while there are none: 0 then).
 */
export const FACEBOOK_POST_COUNT_FIELDS = 'shares,comments.summary(true).limit(0)';

interface FacebookPostCounts {
  shares?: { count?: number };
  comments?: { summary?: { total_count?: number } };
}

interface FacebookListedPost {
  id: string;
  message?: string;
  created_time?: string;
  permalink_url?: string;
  full_picture?: string;
}

/** Facebook Page analytics with the Page token (`read_insights`, ANALYZE task). */
export function createFacebookMetrics(settings: AdapterSettings<MetaUrls>): MetricsAdapter {
  const graph = createGraphClient(settings, 'Facebook');
  return {
    billedReads: false,
    async postMetrics(account, post) {
      const raw = await readGraphInsights(
        graph,
        post.externalId,
        account.tokens.accessToken,
        FACEBOOK_POST_METRICS,
      );
      const counts = await graph.get<FacebookPostCounts>(
        post.externalId,
        account.tokens.accessToken,
        { fields: FACEBOOK_POST_COUNT_FIELDS },
      );
      const comments = counts.comments?.summary?.total_count;
      if (typeof comments === 'number') raw['comments.summary.total_count'] = comments;
      // The node answered: no `shares` means none yet.
      const shares = typeof counts.shares?.count === 'number' ? counts.shares.count : 0;
      raw['shares.count'] = shares;
      const likes = raw.post_reactions_by_type_total;
      const clicks = raw.post_clicks;
      return {
        views: raw.post_media_view,
        reach: raw.post_total_media_view_unique,
        likes,
        comments,
        shares,
        clicks,
        interactions: sumPresent(likes, comments, shares, clicks),
        raw,
      };
    },
    async listRecentPosts(account, { since, limit }) {
      const answer = await graph.get<{ data?: FacebookListedPost[] }>(
        `${account.externalId}/published_posts`,
        account.tokens.accessToken,
        {
          fields: 'id,message,created_time,permalink_url,full_picture',
          since: String(Math.floor(since.getTime() / 1000)),
          limit: String(limit),
        },
      );
      return listedSince(answer.data, since, (p) => ({
        externalId: p.id,
        publishedAt: p.created_time ? new Date(p.created_time) : null,
        permalink: p.permalink_url ?? null,
        text: p.message ?? null,
        thumbnailUrl: p.full_picture ?? null,
      })).slice(0, limit);
    },
    async accountMetrics(account) {
      const token = account.tokens.accessToken;
      const raw = await readGraphInsights(graph, account.externalId, token, FACEBOOK_PAGE_METRICS, {
        period: 'day',
      });
      const page = await graph.get<{ followers_count?: number }>(account.externalId, token, {
        fields: 'followers_count',
      });
      if (typeof page.followers_count === 'number') raw.followers_count = page.followers_count;
      return {
        followers: raw.followers_count,
        views: raw.page_media_view,
        reach: raw.page_total_media_view_unique,
        profileViews: raw.page_views_total,
        interactions: raw.page_post_engagements,
        raw,
      };
    },
  };
}
