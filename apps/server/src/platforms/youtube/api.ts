import { PlatformError } from '../errors.js';
import { googleTokenCalls } from '../google-oauth.js';
import { requestJson } from '../oauth.js';
import type { AdapterSettings } from '../types.js';
import { describeYouTubeError, type YouTubeRequest } from './errors.js';
import { YOUTUBE_COMMENTS_PAGE, YOUTUBE_UNIT_COSTS, type YouTubeCall } from './limits.js';

/** Where Google and YouTube live (docs/networks.md#sandboxes): production or the sandbox, same paths. */
export interface YouTubeUrls {
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** https://www.googleapis.com/youtube/v3 */
  apiBase: string;
  /** https://www.googleapis.com/upload/youtube/v3 */
  uploadBase: string;
}

export interface YouTubeChannel {
  id: string;
  snippet?: {
    title?: string;
    customUrl?: string;
    thumbnails?: Record<string, { url?: string }>;
  };
  statistics?: { subscriberCount?: string; viewCount?: string; videoCount?: string };
  status?: { longUploadsStatus?: string; isLinked?: boolean };
}

export interface YouTubeVideo {
  id: string;
  snippet?: {
    title?: string;
    description?: string;
    channelId?: string;
    publishedAt?: string;
    thumbnails?: Record<string, { url?: string }>;
  };
  status?: {
    privacyStatus?: string;
    uploadStatus?: string;
    publishAt?: string;
    selfDeclaredMadeForKids?: boolean;
  };
  statistics?: {
    viewCount?: string;
    likeCount?: string;
    favoriteCount?: string;
    commentCount?: string;
  };
}

export interface YouTubeComment {
  id: string;
  snippet: {
    textOriginal?: string;
    textDisplay?: string;
    authorDisplayName?: string;
    authorProfileImageUrl?: string;
    authorChannelId?: { value?: string };
    likeCount?: number;
    publishedAt?: string;
    updatedAt?: string;
    parentId?: string;
    videoId?: string;
  };
}

export interface YouTubeCommentThread {
  id: string;
  snippet: {
    videoId?: string;
    channelId?: string;
    topLevelComment: YouTubeComment;
    totalReplyCount?: number;
  };
  replies?: { comments?: YouTubeComment[] };
}

/** Where a resumable upload stands: finished with its video, or the bytes YouTube has. */
export type UploadProgress =
  { done: true; video: YouTubeVideo } | { done: false; committed: number };

const JSON_UTF8 = 'application/json; charset=UTF-8';

/** `Range: bytes=0-{last}` of a 308 → bytes YouTube has; none yet: 0. */
function committedOf(headers: Headers): number {
  const match = /bytes=0-(\d+)/.exec(headers.get('range') ?? '');
  return match ? Number(match[1]) + 1 : 0;
}

/**
 * Typed calls to Google's OAuth endpoints and the YouTube Data API. Each API call is counted
 * against the project's quota (`settings.quota`) before it goes out: YouTube bills refused
 * requests too.
 */
export function createYouTubeApi(settings: AdapterSettings<YouTubeUrls>) {
  const { urls, http } = settings;

  async function spend(call: YouTubeCall) {
    if (call === 'insertVideo') await settings.quota?.spend('YouTube', 'uploads', 1);
    else await settings.quota?.spend('YouTube', 'units', YOUTUBE_UNIT_COSTS[call]);
  }

  function call<T>(url: string, init: RequestInit, request: YouTubeRequest = 'api') {
    return requestJson<T>(http, 'YouTube', url, init, describeYouTubeError(request));
  }

  async function api<T>(
    cost: YouTubeCall,
    token: string,
    path: string,
    init: RequestInit = {},
  ): Promise<T> {
    await spend(cost);
    return call<T>(`${urls.apiBase}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    });
  }

  /** A PUT to the upload session: 200/201 with the video, 308 with what YouTube has. */
  async function sessionPut(
    sessionUri: string,
    accessToken: string,
    headers: Record<string, string>,
    body?: Buffer,
  ): Promise<UploadProgress> {
    let res: Response;
    try {
      res = await http(sessionUri, {
        method: 'PUT',
        headers: { authorization: `Bearer ${accessToken}`, ...headers },
        ...(body ? { body: new Uint8Array(body) } : {}),
      });
    } catch (err) {
      throw new PlatformError('transient', 'The upload to YouTube was cut off.', {
        code: err instanceof Error ? err.message : undefined,
      });
    }
    if (res.status === 308) {
      await res.text();
      return { done: false, committed: committedOf(res.headers) };
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    if (res.ok) {
      const video = parsed as YouTubeVideo | null;
      if (!video?.id)
        throw new PlatformError('transient', 'YouTube finished the upload without a video id.');
      return { done: true, video };
    }
    const d = describeYouTubeError('api')(parsed);
    const kind = d.kind ?? (res.status === 404 || res.status === 410 ? 'bad_request' : undefined);
    throw new PlatformError(
      kind ?? (res.status >= 500 ? 'transient' : 'bad_request'),
      d.sentence ?? `YouTube said: ${d.message ?? `HTTP ${res.status}`}`,
      { status: res.status, code: d.code, retryAfterSeconds: d.retryAfterSeconds },
    );
  }

  return {
    ...googleTokenCalls(settings, call),

    async myChannels(accessToken: string): Promise<YouTubeChannel[]> {
      const body = await api<{ items?: YouTubeChannel[] }>(
        'list',
        accessToken,
        '/channels?part=snippet,statistics,status&mine=true&maxResults=50',
      );
      return body?.items ?? [];
    },

    /** videos.insert, resumable: the session URI YouTube answers in `Location`. */
    async startUpload(
      accessToken: string,
      input: { total: number; mimeType: string; notifySubscribers: boolean; resource: object },
    ): Promise<string> {
      await spend('insertVideo');
      const query = new URLSearchParams({
        uploadType: 'resumable',
        part: 'snippet,status',
        notifySubscribers: String(input.notifySubscribers),
      });
      let res: Response;
      try {
        res = await http(`${urls.uploadBase}/videos?${query.toString()}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${accessToken}`,
            'content-type': JSON_UTF8,
            'x-upload-content-length': String(input.total),
            'x-upload-content-type': input.mimeType,
          },
          body: JSON.stringify(input.resource),
        });
      } catch (err) {
        throw new PlatformError('transient', 'YouTube could not be reached. Please try again.', {
          code: err instanceof Error ? err.message : undefined,
        });
      }
      const text = await res.text();
      if (!res.ok) {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // Not JSON: quoted as it came.
        }
        const d = describeYouTubeError('api')(parsed);
        throw new PlatformError(
          d.kind ??
            (res.status >= 500 ? 'transient' : res.status === 401 ? 'reauth' : 'bad_request'),
          d.sentence ?? `YouTube said: ${d.message ?? `HTTP ${res.status}`}`,
          { status: res.status, code: d.code, retryAfterSeconds: d.retryAfterSeconds },
        );
      }
      const location = res.headers.get('location');
      if (!location)
        throw new PlatformError('transient', 'YouTube started the upload without a session URI.');
      return location;
    },

    /** `Content-Range: bytes first-last/total` with the bytes. */
    putChunk: (
      sessionUri: string,
      accessToken: string,
      bytes: Buffer,
      first: number,
      total: number,
    ) =>
      sessionPut(
        sessionUri,
        accessToken,
        {
          'content-type': 'application/octet-stream',
          'content-length': String(bytes.length),
          'content-range': `bytes ${first}-${first + bytes.length - 1}/${total}`,
        },
        bytes,
      ),

    /** An empty PUT with `Content-Range: bytes * /total`: how far the upload got. */
    queryUpload: (sessionUri: string, accessToken: string, total: number) =>
      sessionPut(sessionUri, accessToken, {
        'content-length': '0',
        'content-range': `bytes */${total}`,
      }),

    async setThumbnail(accessToken: string, videoId: string, bytes: Buffer, mimeType: string) {
      await spend('thumbnailsSet');
      return call<unknown>(
        `${urls.uploadBase}/thumbnails/set?videoId=${encodeURIComponent(videoId)}`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': mimeType },
          body: new Uint8Array(bytes),
        },
      );
    },

    async videos(accessToken: string, ids: string[], part: string): Promise<YouTubeVideo[]> {
      const query = new URLSearchParams({ part, id: ids.join(','), maxResults: '50' });
      const body = await api<{ items?: YouTubeVideo[] }>(
        'list',
        accessToken,
        `/videos?${query.toString()}`,
      );
      return body?.items ?? [];
    },

    async commentThreads(
      accessToken: string,
      filter: { videoId: string } | { allThreadsRelatedToChannelId: string },
      pageToken?: string,
    ) {
      const query = new URLSearchParams({
        part: 'snippet,replies',
        maxResults: String(YOUTUBE_COMMENTS_PAGE),
        textFormat: 'plainText',
        ...filter,
        ...(pageToken ? { pageToken } : {}),
      });
      const body = await api<{ items?: YouTubeCommentThread[]; nextPageToken?: string }>(
        'list',
        accessToken,
        `/commentThreads?${query.toString()}`,
      );
      return { threads: body?.items ?? [], nextPageToken: body?.nextPageToken ?? null };
    },

    async replies(accessToken: string, parentId: string): Promise<YouTubeComment[]> {
      const query = new URLSearchParams({
        part: 'snippet',
        parentId,
        maxResults: '100',
        textFormat: 'plainText',
      });
      const body = await api<{ items?: YouTubeComment[] }>(
        'list',
        accessToken,
        `/comments?${query.toString()}`,
      );
      return body?.items ?? [];
    },

    insertReply: (accessToken: string, parentId: string, text: string) =>
      api<YouTubeComment>('commentInsert', accessToken, '/comments?part=snippet', {
        method: 'POST',
        headers: { 'content-type': JSON_UTF8 },
        body: JSON.stringify({ snippet: { parentId, textOriginal: text } }),
      }),

    updateComment: (accessToken: string, id: string, text: string) =>
      api<YouTubeComment>('commentUpdate', accessToken, '/comments?part=snippet', {
        method: 'PUT',
        headers: { 'content-type': JSON_UTF8 },
        body: JSON.stringify({ id, snippet: { textOriginal: text } }),
      }),

    /** videos.update of the status part: a new scheduled time for a video still private. */
    updateVideoStatus: (accessToken: string, id: string, status: Record<string, unknown>) =>
      api<YouTubeVideo>('videoUpdate', accessToken, '/videos?part=status', {
        method: 'PUT',
        headers: { 'content-type': JSON_UTF8 },
        body: JSON.stringify({ id, status }),
      }),

    async deleteVideo(accessToken: string, id: string) {
      await api<unknown>('videoDelete', accessToken, `/videos?id=${encodeURIComponent(id)}`, {
        method: 'DELETE',
      });
    },

    async deleteComment(accessToken: string, id: string) {
      await api<unknown>('commentDelete', accessToken, `/comments?id=${encodeURIComponent(id)}`, {
        method: 'DELETE',
      });
    },
  };
}

export type YouTubeApi = ReturnType<typeof createYouTubeApi>;
