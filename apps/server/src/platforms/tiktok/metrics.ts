import { PlatformError } from '../errors.js';
import { requestJson } from '../oauth.js';
import { type AdapterSettings, type MetricsAdapter, pickNumbers, sumPresent } from '../types.js';
import type { TikTokUrls } from './api.js';
import { describeTikTokError, isTikTokError } from './errors.js';

/** Video fields asked of `POST /v2/video/query/` (`video.list`; docs/analytics.md#tiktok). */
export const TIKTOK_VIDEO_METRIC_FIELDS = [
  'id',
  'view_count',
  'like_count',
  'comment_count',
  'share_count',
] as const;

/** Account fields asked of `GET /v2/user/info/` (`user.info.stats`): current totals only. */
export const TIKTOK_ACCOUNT_METRIC_FIELDS = [
  'follower_count',
  'following_count',
  'likes_count',
  'video_count',
] as const;

/**
 * TikTok analytics through Login Kit: counts only. Reach, saves and watch time need the API for
 * Business (a second app and sign-in), which Herald does not use.
 */
export function createTikTokMetrics(settings: AdapterSettings<TikTokUrls>): MetricsAdapter {
  const describe = describeTikTokError('api');
  async function call<T>(path: string, token: string, init: RequestInit = {}): Promise<T> {
    const body = await requestJson<T>(
      settings.http,
      'TikTok',
      `${settings.urls.apiBase}${path}`,
      {
        ...init,
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.body ? { 'content-type': 'application/json; charset=UTF-8' } : {}),
        },
      },
      describe,
    );
    if (isTikTokError(body)) {
      const d = describe(body);
      throw new PlatformError(
        d.kind ?? 'bad_request',
        `TikTok said: ${d.message ?? 'the request failed.'}`,
        {
          status: 200,
          code: d.code,
        },
      );
    }
    return body;
  }

  return {
    billedReads: false,
    async postMetrics(account, post) {
      const answer = await call<{ data?: { videos?: Array<Record<string, unknown>> } }>(
        `/v2/video/query/?fields=${TIKTOK_VIDEO_METRIC_FIELDS.join(',')}`,
        account.tokens.accessToken,
        { method: 'POST', body: JSON.stringify({ filters: { video_ids: [post.externalId] } }) },
      );
      const video = answer.data?.videos?.find((v) => v.id === post.externalId);
      if (!video) return null;
      const raw = pickNumbers(video) as Record<string, number>;
      return {
        views: raw.view_count,
        videoViews: raw.view_count,
        likes: raw.like_count,
        comments: raw.comment_count,
        shares: raw.share_count,
        interactions: sumPresent(raw.like_count, raw.comment_count, raw.share_count),
        raw,
      };
    },
    async accountMetrics(account) {
      const answer = await call<{ data?: { user?: Record<string, unknown> } }>(
        `/v2/user/info/?fields=${TIKTOK_ACCOUNT_METRIC_FIELDS.join(',')}`,
        account.tokens.accessToken,
      );
      const raw = pickNumbers(answer.data?.user ?? {}) as Record<string, number>;
      return { followers: raw.follower_count, raw };
    },
  };
}
