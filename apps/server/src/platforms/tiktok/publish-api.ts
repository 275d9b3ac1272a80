import { timeLimited } from '../deadlines.js';
import { PlatformError } from '../errors.js';
import { requestJson } from '../oauth.js';
import type { AdapterSettings, PlatformHttp } from '../types.js';
import type { TikTokUrls } from './api.js';
import { describeTikTokError, isTikTokError, withTikTokSentence } from './errors.js';
import type { TikTokTiming } from './limits.js';

/** creator_info (docs/networks.md#tiktok-publishing): what this creator may post now. */
export interface TikTokCreator {
  creator_avatar_url?: string;
  creator_username?: string;
  creator_nickname?: string;
  privacy_level_options?: string[];
  comment_disabled?: boolean;
  duet_disabled?: boolean;
  stitch_disabled?: boolean;
  max_video_post_duration_sec?: number;
}

export interface TikTokInit {
  publish_id: string;
  upload_url?: string;
}

/** status/fetch (docs/networks.md#tiktok-publishing); post ids arrive as int64 and are kept as strings here. */
export interface TikTokPublishStatus {
  status?: string;
  fail_reason?: string;
  publicaly_available_post_id?: string[];
  uploaded_bytes?: number;
}

export interface TikTokVideo {
  id: string;
  title?: string;
  video_description?: string;
  create_time?: number;
  share_url?: string;
}

const JSON_UTF8 = 'application/json; charset=UTF-8';

/**
 * Quotes the int64 post ids of a status answer before JSON.parse rounds them: TikTok writes
 * `"publicaly_available_post_id":[7345…]` as bare numbers beyond what a JS number holds.
 */
function keepPostIdsExact(http: PlatformHttp): PlatformHttp {
  return async (url, init) => {
    const res = await http(url, init);
    const text = (await res.text()).replace(
      /("publicaly_available_post_id"\s*:\s*\[)([^\]]*)\]/,
      (_m, open: string, ids: string) =>
        `${open}${ids
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean)
          .map((id) => (id.startsWith('"') ? id : `"${id}"`))
          .join(',')}]`,
    );
    return new Response(text || null, { status: res.status, headers: res.headers });
  };
}

/** Typed Content Posting calls (docs/networks.md#tiktok-publishing) and the video list (docs/networks.md#tiktok-video-list), each with its time limit. */
export function createTikTokPublishApi(
  settings: AdapterSettings<TikTokUrls>,
  timing: TikTokTiming,
) {
  const base = settings.urls.apiBase;
  const reads = timeLimited(settings.http, timing.requestTimeoutMs);
  const inits = timeLimited(settings.http, timing.initTimeoutMs);
  const chunks = timeLimited(settings.http, timing.chunkTimeoutMs);
  const statuses = keepPostIdsExact(reads);
  const describe = describeTikTokError('api');

  async function post<T>(path: string, token: string, body: unknown, http = reads): Promise<T> {
    return postOnce<T>(path, token, body, http).catch((err: unknown) => {
      throw withTikTokSentence(err);
    });
  }

  async function postOnce<T>(path: string, token: string, body: unknown, http: typeof reads) {
    const answer = await requestJson<{ data?: T }>(
      http,
      'TikTok',
      `${base}${path}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': JSON_UTF8 },
        body: JSON.stringify(body),
      },
      describe,
    );
    if (isTikTokError(answer)) {
      const d = describe(answer);
      throw new PlatformError(d.kind ?? 'bad_request', d.sentence ?? `TikTok said: ${d.message}`, {
        status: 200,
        code: d.code,
        retryAfterSeconds: d.retryAfterSeconds,
      });
    }
    return (answer?.data ?? {}) as T;
  }

  function requireId(init: TikTokInit) {
    if (!init.publish_id)
      throw new PlatformError('transient', 'TikTok answered the post without a publish_id.');
    return init;
  }

  return {
    creatorInfo: (token: string) =>
      post<TikTokCreator>('/v2/post/publish/creator_info/query/', token, {}),

    /** The commit point for a video (docs/networks.md#tiktok-idempotency): TikTok posts it once the bytes are there. */
    initVideo: async (token: string, body: unknown) =>
      requireId(await post<TikTokInit>('/v2/post/publish/video/init/', token, body, inits)),

    /** An inbox draft (scope video.upload): TikTok notifies the creator, who finishes it in the app. */
    initInboxVideo: async (token: string, body: unknown) =>
      requireId(await post<TikTokInit>('/v2/post/publish/inbox/video/init/', token, body, inits)),

    /** The commit point for photos: TikTok pulls them and posts. */
    initPhotos: async (token: string, body: unknown) =>
      requireId(await post<TikTokInit>('/v2/post/publish/content/init/', token, body, inits)),

    /** One chunk to the init's upload_url, used verbatim (docs/networks.md#sandbox-rules, rule 2). */
    async uploadChunk(
      uploadUrl: string,
      chunk: Buffer,
      range: { first: number; total: number; mimeType: string },
    ) {
      await requestJson<unknown>(
        chunks,
        'TikTok',
        uploadUrl,
        {
          method: 'PUT',
          headers: {
            'content-type': range.mimeType,
            'content-range': `bytes ${range.first}-${range.first + chunk.length - 1}/${range.total}`,
          },
          body: new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length),
        },
        describe,
      );
    },

    fetchStatus: (token: string, publishId: string) =>
      post<TikTokPublishStatus>(
        '/v2/post/publish/status/fetch/',
        token,
        { publish_id: publishId },
        statuses,
      ),

    async listVideos(token: string, fields: readonly string[], maxCount: number) {
      const data = await post<{ videos?: TikTokVideo[] }>(
        `/v2/video/list/?fields=${fields.join(',')}`,
        token,
        { max_count: maxCount },
      );
      return data.videos ?? [];
    },
  };
}

export type TikTokPublishApi = ReturnType<typeof createTikTokPublishApi>;
