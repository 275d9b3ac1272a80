import { requestJson } from '../oauth.js';
import { type AdapterSettings, type MetricsAdapter, pickNumbers, sumPresent } from '../types.js';
import { withRateLimitReset, type XUrls } from './api.js';
import { describeXApiError } from './errors.js';

/** Post fields asked of `GET /2/tweets/{id}` (docs/analytics.md#x). */
export const X_METRIC_TWEET_FIELDS = ['public_metrics', 'non_public_metrics'] as const;
/** X gives non-public metrics for posts up to 30 days old only. */
export const X_NON_PUBLIC_MAX_AGE_MS = 30 * 86_400_000;

interface XMetricTweet {
  data?: {
    public_metrics?: Record<string, unknown>;
    non_public_metrics?: Record<string, unknown>;
  };
}

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
    async postMetrics(account, post) {
      const young = Date.now() - post.publishedAt.getTime() < X_NON_PUBLIC_MAX_AGE_MS;
      const fields = young ? X_METRIC_TWEET_FIELDS : X_METRIC_TWEET_FIELDS.slice(0, 1);
      const answer = await get<XMetricTweet>(
        account.tokens.accessToken,
        `/2/tweets/${encodeURIComponent(post.externalId)}?tweet.fields=${fields.join(',')}`,
      );
      const pub = pickNumbers(answer.data?.public_metrics ?? {});
      const priv = pickNumbers(answer.data?.non_public_metrics ?? {});
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
