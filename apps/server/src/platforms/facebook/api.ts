import type { GraphApi, GraphList } from '../meta/api.js';
import type { GraphClient } from '../meta/graph-client.js';
import { FACEBOOK_PAGE_LIST_LIMIT } from './limits.js';

/** A Page as `/me/accounts` lists it (docs/networks.md#facebook-oauth, #account-identity). */
export interface FacebookPage {
  id: string;
  name?: string;
  access_token?: string;
  picture?: { data?: { url?: string } };
  /** What the user may do on the Page: CREATE_CONTENT, MODERATE, ANALYZE, MANAGE… */
  tasks?: string[];
}

const PAGE_FIELDS = 'id,name,access_token,picture{url},tasks';

/** The Pages the signed-in user manages with a personal role, each with its Page token. */
export const listManagedPages = (api: GraphApi, userToken: string) =>
  api.listPages<FacebookPage>(userToken, PAGE_FIELDS, FACEBOOK_PAGE_LIST_LIMIT);

/**
 * The Pages the user reaches through business portfolios (`business_management`), which
 * `/me/accounts` does not list: each portfolio's own Pages and its clients' Pages.
 */
export async function listBusinessPages(api: GraphApi, userToken: string) {
  const businesses = await api.listEdge<{ id: string; name?: string }>(
    userToken,
    'me/businesses',
    'id,name',
    FACEBOOK_PAGE_LIST_LIMIT,
  );
  const pages: FacebookPage[] = [];
  for (const business of businesses)
    for (const edge of ['owned_pages', 'client_pages'])
      pages.push(
        ...(await api.listEdge<FacebookPage>(
          userToken,
          `${encodeURIComponent(business.id)}/${edge}`,
          PAGE_FIELDS,
          FACEBOOK_PAGE_LIST_LIMIT,
        )),
      );
  return pages;
}

/** A Page post, photo post or video as the recent lists give it (docs/networks.md#facebook-publishing, #facebook-idempotency). */
export interface FacebookPostNode {
  id: string;
  message?: string;
  description?: string;
  created_time?: string;
  permalink_url?: string;
}

/** A comment on a Page post (docs/networks.md#facebook-comments); `comments` only on top-level comments. */
export interface FacebookCommentNode {
  id: string;
  message?: string;
  created_time?: string;
  /** Absent when the commenter has not authorized the app. */
  from?: { id?: string; name?: string };
  like_count?: number;
  comment_count?: number;
  parent?: { id: string };
  comments?: GraphList<FacebookCommentNode>;
}

type Params = Record<string, string | undefined>;

const COMMENT_FIELDS = 'id,message,created_time,from{id,name},like_count,comment_count,parent{id}';

/** Invisible: a photo to attach to a later `/feed` post. */
export const uploadUnpublishedPhoto = (
  graph: GraphClient,
  pageId: string,
  token: string,
  url: string,
  altText?: string | null,
) =>
  graph.post<{ id: string }>(`${pageId}/photos`, token, {
    url,
    published: 'false',
    ...(altText ? { alt_text_custom: altText } : {}),
  });

/** The visible calls (docs/networks.md#facebook-idempotency): never repeated blindly. */
export const publishToFeed = (graph: GraphClient, pageId: string, token: string, params: Params) =>
  graph.publish<{ id: string }>(`${pageId}/feed`, token, params);

export const publishPhoto = (graph: GraphClient, pageId: string, token: string, params: Params) =>
  graph.publish<{ id: string; post_id?: string }>(`${pageId}/photos`, token, {
    ...params,
    published: 'true',
  });

/**
 * A video from the handle of a finished upload (`fbuploader_video_file_chunk`), on
 * graph.facebook.com like every call (https://developers.facebook.com/docs/video-api/overview).
 */
export const publishVideo = (
  graph: GraphClient,
  pageId: string,
  token: string,
  params: { fbuploader_video_file_chunk: string; description?: string },
) => graph.publish<{ id: string }>(`${pageId}/videos`, token, params);

/**
 * The Resumable Upload API (https://developers.facebook.com/docs/graph-api/guides/upload), with
 * the app's id and the person's user token: start a session for one file. Invisible.
 */
export const startUploadSession = (
  graph: GraphClient,
  appId: string,
  userToken: string,
  file: { fileName: string; fileLength: number; fileType: string },
) =>
  graph.post<{ id: string }>(`${encodeURIComponent(appId)}/uploads`, userToken, {
    file_name: file.fileName,
    file_length: String(file.fileLength),
    file_type: file.fileType,
  });

/** How many bytes of the file Meta holds for the session (after an interrupted upload). */
export const readUploadOffset = (graph: GraphClient, session: string, userToken: string) =>
  graph.get<{ id?: string; file_offset?: number | string }>(session, userToken);

/**
 * The file's bytes from `offset` on: the answer carries the handle `h` once Meta has the whole
 * file (an answer without it means Meta holds only part: read the offset again).
 */
export const uploadFrom = (
  graph: GraphClient,
  session: string,
  userToken: string,
  offset: number,
  body: NonNullable<RequestInit['body']>,
  timeoutMs: number,
) =>
  graph.postBytes<{ h?: string }>(
    session,
    userToken,
    {
      body,
      headers: { file_offset: String(offset), 'content-type': 'application/octet-stream' },
    },
    timeoutMs,
  );

export const readPermalink = (graph: GraphClient, id: string, token: string) =>
  graph.get<{ id: string; permalink_url?: string }>(id, token, { fields: 'permalink_url' });

/** The Page's latest posts (`published_posts`) or videos (`videos`), newest first. */
export async function listRecent(
  graph: GraphClient,
  pageId: string,
  token: string,
  edge: 'published_posts' | 'videos',
  limit: number,
) {
  const fields =
    edge === 'videos'
      ? 'id,description,created_time,permalink_url'
      : 'id,message,created_time,permalink_url';
  const body = await graph.get<GraphList<FacebookPostNode>>(`${pageId}/${edge}`, token, {
    fields,
    limit: String(limit),
  });
  return body.data ?? [];
}

/** Top-level comments, each with its replies (Facebook threads are two levels deep). */
export const listPostComments = (
  graph: GraphClient,
  postId: string,
  token: string,
  page: { limit: number; after?: string },
) =>
  graph.get<GraphList<FacebookCommentNode>>(`${postId}/comments`, token, {
    fields: `${COMMENT_FIELDS},comments{${COMMENT_FIELDS}}`,
    filter: 'toplevel',
    order: 'chronological',
    limit: String(page.limit),
    after: page.after,
  });

export const readComment = (graph: GraphClient, commentId: string, token: string) =>
  graph.get<FacebookCommentNode>(commentId, token, { fields: COMMENT_FIELDS });

export const replyToComment = (
  graph: GraphClient,
  commentId: string,
  token: string,
  message: string,
) => graph.post<{ id: string }>(`${commentId}/comments`, token, { message });

export const editComment = (
  graph: GraphClient,
  commentId: string,
  token: string,
  message: string,
) => graph.post<{ success?: boolean }>(commentId, token, { message });

export const deleteComment = (graph: GraphClient, commentId: string, token: string) =>
  graph.delete<{ success?: boolean }>(commentId, token);
