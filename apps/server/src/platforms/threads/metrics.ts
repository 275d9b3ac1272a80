import { requestJson } from '../oauth.js';
import { type AdapterSettings, listedSince, type MetricsAdapter, sumPresent } from '../types.js';
import type { ThreadsUrls } from './api.js';
import { describeThreadsError } from './errors.js';
import { THREADS_GRAPH_VERSION } from './limits.js';

/** Media metrics asked of `/{media}/insights` (docs/analytics.md#threads). */
export const THREADS_MEDIA_METRICS = [
  'views',
  'likes',
  'replies',
  'reposts',
  'quotes',
  'shares',
] as const;

/**
 * Account metrics asked of `/{user}/threads_insights`. Here `views` are profile views (a daily
 * series), the rest are totals over the period; `followers_count` ignores the period.
 */
export const THREADS_ACCOUNT_METRICS = [
  'views',
  'likes',
  'replies',
  'reposts',
  'quotes',
  'followers_count',
] as const;

interface Insight {
  name: string;
  values?: Array<{ value?: unknown }>;
  total_value?: { value?: unknown };
}

const DAY_S = 86_400;

/** Threads analytics (`threads_manage_insights`). */
export function createThreadsMetrics(settings: AdapterSettings<ThreadsUrls>): MetricsAdapter {
  const base = `${settings.urls.graphBase}/${THREADS_GRAPH_VERSION}`;

  async function insights(path: string, token: string, params: Record<string, string>) {
    const query = new URLSearchParams({ ...params, access_token: token });
    const answer = await requestJson<{ data?: Insight[] }>(
      settings.http,
      'Threads',
      `${base}/${path}?${query.toString()}`,
      {},
      describeThreadsError,
    );
    const raw: Record<string, number> = {};
    for (const i of answer.data ?? []) {
      // A daily series (profile views) counts the whole period asked for.
      const value =
        i.total_value !== undefined
          ? i.total_value.value
          : (i.values ?? []).reduce<number | undefined>(
              (sum, v) => (typeof v.value === 'number' ? (sum ?? 0) + v.value : sum),
              undefined,
            );
      if (typeof value === 'number' && Number.isFinite(value)) raw[i.name] = value;
    }
    return raw;
  }

  return {
    billedReads: false,
    async postMetrics(account, post) {
      const raw = await insights(`${post.externalId}/insights`, account.tokens.accessToken, {
        metric: THREADS_MEDIA_METRICS.join(','),
      });
      return {
        views: raw.views,
        likes: raw.likes,
        comments: raw.replies,
        shares: sumPresent(raw.reposts, raw.quotes, raw.shares),
        interactions: sumPresent(raw.likes, raw.replies, raw.reposts, raw.quotes, raw.shares),
        raw,
      };
    },
    async listRecentPosts(account, { since, limit }) {
      const query = new URLSearchParams({
        fields: 'id,text,permalink,timestamp,media_type,media_url,thumbnail_url',
        since: String(Math.floor(since.getTime() / 1000)),
        limit: String(limit),
        access_token: account.tokens.accessToken,
      });
      const answer = await requestJson<{
        data?: Array<{
          id: string;
          text?: string;
          permalink?: string;
          timestamp?: string;
          media_type?: string;
          media_url?: string;
          thumbnail_url?: string;
        }>;
      }>(
        settings.http,
        'Threads',
        `${base}/${account.externalId}/threads?${query.toString()}`,
        {},
        describeThreadsError,
      );
      return listedSince(answer.data, since, (m) => ({
        externalId: m.id,
        publishedAt: m.timestamp ? new Date(m.timestamp) : null,
        permalink: m.permalink ?? null,
        text: m.text ?? null,
        thumbnailUrl: m.thumbnail_url ?? (m.media_type === 'IMAGE' ? (m.media_url ?? null) : null),
      })).slice(0, limit);
    },
    async accountMetrics(account) {
      // The last whole day (UTC): Threads' totals are for the period asked.
      const until = Math.floor(Date.now() / 1000 / DAY_S) * DAY_S;
      const raw = await insights(
        `${account.externalId}/threads_insights`,
        account.tokens.accessToken,
        {
          metric: THREADS_ACCOUNT_METRICS.join(','),
          since: String(until - DAY_S),
          until: String(until),
        },
      );
      return {
        followers: raw.followers_count,
        profileViews: raw.views,
        interactions: sumPresent(raw.likes, raw.replies, raw.reposts, raw.quotes),
        raw,
      };
    },
  };
}
