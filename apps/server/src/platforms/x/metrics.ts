import { requestJson } from '../oauth.js';
import {
  type AdapterSettings,
  type MetricsAdapter,
  pickNumbers,
  type PostMetricValues,
  sumPresent,
} from '../types.js';
import { withRateLimitReset, type XUrls } from './api.js';
import { describeXApiError } from './errors.js';

/** Post fields asked of `GET /2/tweets/{id}` (docs/analytics.md#x). */
export const X_METRIC_TWEET_FIELDS = ['public_metrics', 'non_public_metrics'] as const;
/** X gives non-public metrics for posts up to 30 days old only. */
export const X_NON_PUBLIC_MAX_AGE_MS = 30 * 86_400_000;

/** How many ids one `GET /2/tweets?ids=` takes. */
export const X_BATCH_SIZE = 100;

interface XMetricFields {
  id?: string;
  public_metrics?: Record<string, unknown>;
  non_public_metrics?: Record<string, unknown>;
}

interface XMetricTweet {
  data?: XMetricFields;
}

/** One post's metrics in Herald's names (docs/analytics.md#per-network-mapping). */
function valuesOf(tweet: XMetricFields | undefined): PostMetricValues {
  const pub = pickNumbers(tweet?.public_metrics ?? {});
  const priv = pickNumbers(tweet?.non_public_metrics ?? {});
  const raw: Record<string, number> = {};
  for (const [k, v] of Object.entries(pub)) raw[`public_metrics.${k}`] = v!;
  for (const [k, v] of Object.entries(priv)) raw[`non_public_metrics.${k}`] = v!;
  const likes = pub.like_count;
  const comments = pub.reply_count;
  const shares = sumPresent(pub.retweet_count, pub.quote_count);
  const clicks = sumPresent(priv.url_link_clicks, priv.user_profile_clicks);
  return {
    views: pub.impression_count ?? priv.impression_count,
    likes,
    comments,
    shares,
    saves: pub.bookmark_count,
    clicks,
    interactions: priv.engagements ?? sumPresent(likes, comments, shares, clicks),
    raw,
  };
}

const isYoung = (publishedAt: Date) => Date.now() - publishedAt.getTime() < X_NON_PUBLIC_MAX_AGE_MS;

/**
 * X analytics with the user's token (`tweet.read users.read`). Every post read is billed by X,
 * so collection runs only when the organization turned it on (docs/analytics.md#x-budget).
 */
export function createXMetrics(settings: AdapterSettings<XUrls>): MetricsAdapter {
  const http = withRateLimitReset(settings.http);
  const get = <T>(token: string, path: string) =>
    requestJson<T>(
      http,
      'X',
      `${settings.urls.apiBase}${path}`,
      { headers: { authorization: `Bearer ${token}` } },
      describeXApiError,
    );

  return {
    billedReads: true,
    batchSize: X_BATCH_SIZE,
    async postMetrics(account, post) {
      const fields = isYoung(post.publishedAt)
        ? X_METRIC_TWEET_FIELDS
        : X_METRIC_TWEET_FIELDS.slice(0, 1);
      const answer = await get<XMetricTweet>(
        account.tokens.accessToken,
        `/2/tweets/${encodeURIComponent(post.externalId)}?tweet.fields=${fields.join(',')}`,
      );
      return valuesOf(answer.data);
    },
    /**
     * `GET /2/tweets?ids=…` for up to 100 posts at once: one request for posts under 30 days
     * (with non-public metrics), one for the older ones (public only, X refuses the rest).
     */
    async postMetricsBatch(account, posts) {
      const out = new Map<string, PostMetricValues>();
      const groups = [
        { posts: posts.filter((p) => isYoung(p.publishedAt)), fields: X_METRIC_TWEET_FIELDS },
        {
          posts: posts.filter((p) => !isYoung(p.publishedAt)),
          fields: X_METRIC_TWEET_FIELDS.slice(0, 1),
        },
      ];
      for (const group of groups) {
        for (let i = 0; i < group.posts.length; i += X_BATCH_SIZE) {
          const ids = group.posts.slice(i, i + X_BATCH_SIZE).map((p) => p.externalId);
          const answer = await get<{ data?: XMetricFields[] }>(
            account.tokens.accessToken,
            `/2/tweets?ids=${ids.map(encodeURIComponent).join(',')}&tweet.fields=${group.fields.join(',')}`,
          );
          for (const tweet of answer.data ?? []) {
            if (tweet.id) out.set(tweet.id, valuesOf(tweet));
          }
        }
      }
      return out;
    },
    async accountMetrics(account) {
      const answer = await get<{ data?: { public_metrics?: Record<string, unknown> } }>(
        account.tokens.accessToken,
        '/2/users/me?user.fields=public_metrics',
      );
      const pub = pickNumbers(answer.data?.public_metrics ?? {});
      const raw: Record<string, number> = {};
      for (const [k, v] of Object.entries(pub)) raw[`public_metrics.${k}`] = v!;
      return { followers: pub.followers_count, raw };
    },
  };
}
