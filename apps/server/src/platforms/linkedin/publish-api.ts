import type { AdapterSettings, PlatformHttp } from '../types.js';
import { requestLinkedIn } from './errors.js';
import type { LinkedInUrls } from './urls.js';

export type LinkedInAssetStatus =
  'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED' | string;

export interface LinkedInPostElement {
  id: string;
  author?: string;
  commentary?: string;
  content?: { media?: { id?: string }; multiImage?: { images?: Array<{ id?: string }> } };
  createdAt?: number;
}

export interface LinkedInCommentElement {
  id?: string;
  commentUrn?: string;
  actor?: string;
  created?: { time?: number };
  message?: { text?: string };
  object?: string;
  parentComment?: string;
  likesSummary?: { totalLikes?: number };
  commentsSummary?: { totalFirstLevelComments?: number; aggregatedTotalComments?: number };
}

export interface LinkedInPage<T> {
  elements?: T[];
  paging?: { start?: number; count?: number; total?: number };
}

/** One organizational entity notification (docs/inbox.md#linkedin-and-tiktok). */
export interface LinkedInNotificationElement {
  notificationId?: number | string;
  organizationalEntity?: string;
  action?: string;
  sourcePost?: string;
  generatedActivity?: string;
  decoratedGeneratedActivity?: { share?: { entity?: string; owner?: string; text?: string } };
  lastModifiedAt?: number;
}

export interface LinkedInPostBody {
  author: string;
  commentary: string;
  visibility: 'PUBLIC';
  distribution: {
    feedDistribution: 'MAIN_FEED';
    targetEntities: [];
    thirdPartyDistributionChannels: [];
  };
  content?:
    | { media: { id: string; altText?: string } }
    | { multiImage: { images: Array<{ id: string; altText?: string }> } };
  lifecycleState: 'PUBLISHED';
  isReshareDisabledByAuthor: false;
}

/**
 * Typed calls to LinkedIn's Images, Videos, Posts and Comments APIs (docs/networks.md#linkedin-publishing, #linkedin-comments). Every /rest
 * call carries the version headers; upload URLs are used exactly as LinkedIn hands them out.
 */
export function createLinkedInPublishApi(settings: AdapterSettings<LinkedInUrls>) {
  const { urls, http } = settings;
  const rest = (token: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${token}`,
    'linkedin-version': urls.linkedinVersion,
    'x-restli-protocol-version': '2.0.0',
    ...extra,
  });
  const enc = encodeURIComponent;

  /** requestJson that also hands back the answer's headers (x-restli-id, ETag). */
  async function send<T>(url: string, init: RequestInit) {
    let headers = new Headers();
    const keeping: PlatformHttp = async (u, i) => {
      const res = await http(u, i);
      headers = res.headers;
      return res;
    };
    const body = await requestLinkedIn<T>(keeping, url, init);
    return { body, headers };
  }
  const postJson = (token: string, body: unknown, signal?: AbortSignal): RequestInit => ({
    method: 'POST',
    headers: rest(token, { 'content-type': 'application/json' }),
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const get = async <T>(token: string, path: string) =>
    (await send<T>(`${urls.apiBase}${path}`, { headers: rest(token) })).body;

  return {
    async initializeImage(token: string, owner: string) {
      const { body } = await send<{ value: { uploadUrl: string; image: string } }>(
        `${urls.apiBase}/rest/images?action=initializeUpload`,
        postJson(token, { initializeUploadRequest: { owner } }),
      );
      return body.value;
    },

    async initializeVideo(token: string, owner: string, fileSizeBytes: number) {
      const { body } = await send<{
        value: {
          video: string;
          uploadToken?: string;
          uploadInstructions: Array<{ uploadUrl: string; firstByte: number; lastByte: number }>;
        };
      }>(
        `${urls.apiBase}/rest/videos?action=initializeUpload`,
        postJson(token, {
          initializeUploadRequest: {
            owner,
            fileSizeBytes,
            uploadCaptions: false,
            uploadThumbnail: false,
          },
        }),
      );
      return body.value;
    },

    /** PUTs bytes to an upload URL; the part's ETag, for a video's finalizeUpload. */
    async upload(token: string, uploadUrl: string, bytes: Buffer) {
      const { headers } = await send<unknown>(uploadUrl, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(bytes),
      });
      return headers.get('etag');
    },

    async finalizeVideo(
      token: string,
      input: { video: string; uploadToken: string; uploadedPartIds: string[] },
    ) {
      await send<unknown>(
        `${urls.apiBase}/rest/videos?action=finalizeUpload`,
        postJson(token, { finalizeUploadRequest: input }),
      );
    },

    imageStatus: (token: string, urn: string) =>
      get<{ status?: LinkedInAssetStatus }>(token, `/rest/images/${enc(urn)}`),

    videoStatus: (token: string, urn: string) =>
      get<{ status?: LinkedInAssetStatus; processingFailureReason?: string }>(
        token,
        `/rest/videos/${enc(urn)}`,
      ),

    /** The visible call: 201 with the new post's URN in `x-restli-id`. */
    async createPost(token: string, post: LinkedInPostBody, signal?: AbortSignal) {
      const { headers } = await send<unknown>(
        `${urls.apiBase}/rest/posts`,
        postJson(token, post, signal),
      );
      return headers.get('x-restli-id') ?? headers.get('x-linkedin-id');
    },

    postsBy: (token: string, author: string, count: number) =>
      get<LinkedInPage<LinkedInPostElement>>(
        token,
        `/rest/posts?q=author&author=${enc(author)}&count=${count}&sortBy=LAST_MODIFIED`,
      ),

    comments: (token: string, urn: string, start: number, count: number) =>
      get<LinkedInPage<LinkedInCommentElement>>(
        token,
        `/rest/socialActions/${enc(urn)}/comments?start=${start}&count=${count}`,
      ),

    async createComment(
      token: string,
      target: string,
      comment: { actor: string; object: string; message: { text: string }; parentComment?: string },
      signal?: AbortSignal,
    ) {
      const { body, headers } = await send<LinkedInCommentElement | null>(
        `${urls.apiBase}/rest/socialActions/${enc(target)}/comments`,
        postJson(token, comment, signal),
      );
      return { element: body, id: headers.get('x-restli-id') };
    },

    async editComment(token: string, target: string, id: string, actor: string, text: string) {
      await send<unknown>(
        `${urls.apiBase}/rest/socialActions/${enc(target)}/comments/${enc(id)}?actor=${enc(actor)}`,
        postJson(token, { patch: { message: { $set: { text } } } }),
      );
    },

    async deleteComment(token: string, target: string, id: string, actor: string) {
      await send<unknown>(
        `${urls.apiBase}/rest/socialActions/${enc(target)}/comments/${enc(id)}?actor=${enc(actor)}`,
        { method: 'DELETE', headers: rest(token) },
      );
    },

    /**
     * An organization's social-action notifications since `startMs` (LinkedIn keeps 60 days;
     * docs/inbox.md#linkedin-and-tiktok), oldest first, `start`/`count` paging.
     */
    organizationNotifications: (
      token: string,
      organization: string,
      actions: string[],
      startMs: number,
      start: number,
      count: number,
    ) =>
      get<LinkedInPage<LinkedInNotificationElement>>(
        token,
        `/rest/organizationalEntityNotifications?q=criteria&organizationalEntity=${enc(organization)}&actions=List(${actions.join(',')})&timeRange=(start:${Math.max(0, Math.floor(startMs))})&start=${start}&count=${count}`,
      ),

    organizationName: async (token: string, id: string) =>
      (await get<{ localizedName?: string }>(token, `/rest/organizations/${enc(id)}`))
        .localizedName ?? null,
  };
}

export type LinkedInPublishApi = ReturnType<typeof createLinkedInPublishApi>;
