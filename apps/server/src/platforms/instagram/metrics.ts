import { createGraphClient } from '../meta/graph-client.js';
import { readGraphInsights } from '../meta/insights.js';
import type { MetaUrls } from '../meta/urls.js';
import { type AdapterSettings, listedSince, type MetricsAdapter } from '../types.js';
import type { GraphClient } from '../meta/graph-client.js';

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

/** How many past days of `follower_count` are asked (Instagram keeps about 30). */
export const INSTAGRAM_FOLLOWER_DAYS = 30;

const DAY_MS = 86_400_000;

interface InstagramListedMedia {
  id: string;
  caption?: string;
  media_type?: string;
  media_url?: string;
  thumbnail_url?: string;
  permalink?: string;
  timestamp?: string;
}

/**
 * Followers at the end of each day Instagram's `follower_count` covers (followers gained per
 * day, `period=day`, asked alone), counted back from the current total: the last day given ends
 * with the total, each day before with what the next day had minus that next day's gain. The
 * days are the network's own (`end_time` closes the day counted). Instagram does not give it
 * below 100 followers, or may answer nothing: then there is no history, and the day's total
 * still counts.
 */
async function followersHistory(graph: GraphClient, igId: string, token: string, total: number) {
  let answer: {
    data?: Array<{ name: string; values?: Array<{ value?: unknown; end_time?: string }> }>;
  };
  try {
    answer = await graph.get(`${igId}/insights`, token, {
      metric: 'follower_count',
      period: 'day',
      since: String(Math.floor((Date.now() - INSTAGRAM_FOLLOWER_DAYS * DAY_MS) / 1000)),
    });
  } catch {
    return undefined;
  }
  const days: Array<{ day: string; gain: number }> = [];
  for (const v of answer.data?.find((d) => d.name === 'follower_count')?.values ?? []) {
    const end = v.end_time ? Date.parse(v.end_time) : NaN;
    if (typeof v.value !== 'number' || Number.isNaN(end)) continue;
    days.push({ day: new Date(end - DAY_MS).toISOString().slice(0, 10), gain: v.value });
  }
  if (!days.length) return undefined;
  days.sort((a, b) => a.day.localeCompare(b.day));
  const history: Array<{ day: string; followers: number }> = [];
  let followers = total;
  for (let i = days.length - 1; i >= 0; i--) {
    history.push({ day: days[i]!.day, followers });
    followers -= days[i]!.gain;
  }
  return history.reverse();
}

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
      const history =
        typeof user.followers_count === 'number'
          ? await followersHistory(graph, account.externalId, token, user.followers_count)
          : undefined;
      return {
        followers: raw.followers_count,
        views: raw.views,
        reach: raw.reach,
        interactions: raw.total_interactions,
        raw,
        ...(history ? { followersHistory: history } : {}),
      };
    },
    async listRecentPosts(account, { since, limit }) {
      const answer = await graph.get<{ data?: InstagramListedMedia[] }>(
        `${account.externalId}/media`,
        account.tokens.accessToken,
        {
          fields: 'id,caption,media_type,media_url,thumbnail_url,permalink,timestamp',
          limit: String(limit),
        },
      );
      return listedSince(answer.data, since, (m) => ({
        externalId: m.id,
        publishedAt: m.timestamp ? new Date(m.timestamp) : null,
        permalink: m.permalink ?? null,
        text: m.caption ?? null,
        thumbnailUrl: m.thumbnail_url ?? (m.media_type === 'VIDEO' ? null : (m.media_url ?? null)),
      }));
    },
  };
}
