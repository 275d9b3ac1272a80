import { requestJson } from '../oauth.js';
import type { AdapterSettings } from '../types.js';
import { withRateLimitReset, type XUrls, type XUser } from './api.js';
import { describeXApiError } from './errors.js';

/** Media as X answers the upload endpoints (docs/networks.md#x-publishing). */
export interface XMediaAnswer {
  id: string;
  media_key?: string;
  size?: number;
  expires_after_secs?: number;
  processing_info?: XProcessingInfo;
}

export interface XProcessingInfo {
  state: 'pending' | 'in_progress' | 'succeeded' | 'failed';
  check_after_secs?: number;
  progress_percent?: number;
  error?: { code?: number; name?: string; message?: string };
}

export interface XTweetData {
  id: string;
  text: string;
  author_id?: string;
  created_at?: string;
  conversation_id?: string;
  in_reply_to_user_id?: string;
  referenced_tweets?: Array<{ type: string; id: string }>;
  attachments?: { media_keys?: string[] };
  public_metrics?: { like_count?: number; reply_count?: number };
}

export interface XTweetPage {
  data?: XTweetData[];
  includes?: { users?: XUser[] };
  meta?: { result_count?: number; next_token?: string };
}

export interface XCreateTweet {
  text?: string;
  media?: { media_ids: string[] };
  reply?: { in_reply_to_tweet_id: string };
}

/** Typed calls to X's media, posts and search endpoints with the user's token (docs/networks.md#x-publishing, #x-comments). */
export function createXPublishApi(settings: AdapterSettings<XUrls>) {
  const http = withRateLimitReset(settings.http);
  const base = settings.urls.apiBase;

  const call = <T>(token: string, path: string, init: RequestInit = {}) =>
    requestJson<T>(
      http,
      'X',
      `${base}${path}`,
      {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
      },
      describeXApiError,
    );
  const postJson = (body: unknown, signal?: AbortSignal): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const query = (params: Record<string, string | number | undefined>) =>
    new URLSearchParams(
      Object.entries(params)
        .filter((e): e is [string, string | number] => e[1] !== undefined)
        .map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();

  return {
    async initializeUpload(
      token: string,
      input: { mediaType: string; totalBytes: number; category: string },
    ) {
      const body = await call<{ data: XMediaAnswer }>(
        token,
        '/2/media/upload/initialize',
        postJson({
          media_type: input.mediaType,
          total_bytes: input.totalBytes,
          media_category: input.category,
        }),
      );
      return body.data;
    },

    /** One chunk as multipart `media` + `segment_index` (base64 JSON would add a third). */
    async appendChunk(token: string, mediaId: string, index: number, chunk: Buffer) {
      const form = new FormData();
      form.set('segment_index', String(index));
      form.set('media', new Blob([new Uint8Array(chunk)]), 'blob');
      await call<unknown>(token, `/2/media/upload/${encodeURIComponent(mediaId)}/append`, {
        method: 'POST',
        body: form,
      });
    },

    async finalizeUpload(token: string, mediaId: string) {
      const body = await call<{ data: XMediaAnswer }>(
        token,
        `/2/media/upload/${encodeURIComponent(mediaId)}/finalize`,
        { method: 'POST' },
      );
      return body.data;
    },

    async mediaStatus(token: string, mediaId: string) {
      const body = await call<{ data: XMediaAnswer }>(
        token,
        `/2/media/upload?${query({ command: 'STATUS', media_id: mediaId })}`,
      );
      return body.data;
    },

    /** docs/product.md#alt-text: an image's description, set before the post is created. */
    async setAltText(token: string, mediaId: string, text: string) {
      await call<unknown>(
        token,
        '/2/media/metadata',
        postJson({ id: mediaId, metadata: { alt_text: { text } } }),
      );
    },

    /** The visible call: a post or a reply. 201 `{data:{id, text}}`. */
    async createTweet(token: string, tweet: XCreateTweet, signal?: AbortSignal) {
      const body = await call<{ data?: { id?: string; text?: string } }>(
        token,
        '/2/tweets',
        postJson(tweet, signal),
      );
      return body?.data;
    },

    async deleteTweet(token: string, id: string) {
      const body = await call<{ data?: { deleted?: boolean } }>(
        token,
        `/2/tweets/${encodeURIComponent(id)}`,
        { method: 'DELETE' },
      );
      return body?.data?.deleted === true;
    },

    /** The user's most recent posts, replies left out (what reconciliation compares). */
    userTweets: (token: string, userId: string, maxResults: number) =>
      call<XTweetPage>(
        token,
        `/2/users/${encodeURIComponent(userId)}/tweets?${query({
          max_results: maxResults,
          exclude: 'replies,retweets',
          'tweet.fields': 'created_at,attachments',
        })}`,
      ),

    /** Replies of every depth to a post: recent search on its conversation (last 7 days). */
    conversation: (
      token: string,
      postId: string,
      page: { maxResults: number; nextToken?: string; tweetFields: readonly string[] },
    ) =>
      call<XTweetPage>(
        token,
        `/2/tweets/search/recent?${query({
          query: `conversation_id:${postId}`,
          'tweet.fields': page.tweetFields.join(','),
          expansions: 'author_id',
          'user.fields': 'username,name,profile_image_url',
          max_results: page.maxResults,
          next_token: page.nextToken,
        })}`,
      ),
  };
}

export type XPublishApi = ReturnType<typeof createXPublishApi>;
