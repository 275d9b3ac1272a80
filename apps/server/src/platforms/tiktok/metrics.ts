import { PlatformError } from '../errors.js';
import { requestJson } from '../oauth.js';
import {
  type AdapterSettings,
  type ListedPost,
  type MetricsAdapter,
  pickNumbers,
  sumPresent,
} from '../types.js';
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

/** Video fields asked of `POST /v2/video/list/` for posts published outside Herald. */
export const TIKTOK_LIST_FIELDS = [
  'id',
  'create_time',
  'share_url',
  'cover_image_url',
  'video_description',
  'title',
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
    /** `POST /v2/video/list/` (newest first, at most 20 a page): one page is a day's worth. */
    async listRecentPosts(account, { since, limit }) {
      const answer = await call<{
        data?: {
          videos?: Array<{
            id?: string;
            create_time?: number;
            share_url?: string;
            cover_image_url?: string;
            video_description?: string;
            title?: string;
          }>;
        };
      }>(`/v2/video/list/?fields=${TIKTOK_LIST_FIELDS.join(',')}`, account.tokens.accessToken, {
        method: 'POST',
        body: JSON.stringify({ max_count: Math.min(limit, 20) }),
      });
      const out: ListedPost[] = [];
      for (const v of answer.data?.videos ?? []) {
        if (!v.id || typeof v.create_time !== 'number') continue;
        const publishedAt = new Date(v.create_time * 1000);
        if (publishedAt < since) continue;
        out.push({
          externalId: v.id,
          publishedAt,
          permalink: v.share_url ?? null,
          text: v.video_description || v.title || null,
          thumbnailUrl: v.cover_image_url ?? null,
        });
      }
      return out;
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
