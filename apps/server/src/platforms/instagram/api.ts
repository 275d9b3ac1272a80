import type { GraphApi, GraphList } from '../meta/api.js';
import type { GraphClient } from '../meta/graph-client.js';
import type { StoredAccount } from '../types.js';
import { INSTAGRAM_PAGE_LIST_LIMIT } from './limits.js';

/** A Page with its linked Instagram professional account, as `/me/accounts` lists it. */
export interface PageWithInstagram {
  id: string;
  name?: string;
  access_token?: string;
  instagram_business_account?: { id: string };
}

/** The IG User node (docs/networks.md#account-identity). */
export interface InstagramUser {
  id: string;
  username?: string;
  name?: string;
  profile_picture_url?: string;
}

const PAGE_FIELDS = 'id,name,access_token,instagram_business_account';
const IG_USER_FIELDS = 'id,username,name,profile_picture_url';

/** Pages of the signed-in user that have an Instagram professional account linked. */
export async function listPagesWithInstagram(api: GraphApi, userToken: string) {
  const pages = await api.listPages<PageWithInstagram>(
    userToken,
    PAGE_FIELDS,
    INSTAGRAM_PAGE_LIST_LIMIT,
  );
  return pages.filter((page) => page.instagram_business_account?.id);
}

/** The IG user id publishing and comments act as. */
/**
 * The token Instagram calls use: the Page token stored at connect (it does not expire while the
 * person keeps their role on the Page), else the ~60-day user token (accounts connected before
 * Herald kept the Page token).
 */
export const igTokenOf = (account: StoredAccount) =>
  account.secrets.pageToken ?? account.tokens.accessToken;

export const igUserIdOf = (account: StoredAccount) =>
  typeof account.extra.igUserId === 'string' ? account.extra.igUserId : account.externalId;

export const getInstagramUser = (api: GraphApi, igUserId: string, userToken: string) =>
  api.getNode<InstagramUser>(igUserId, userToken, IG_USER_FIELDS);

/** An IG container as `GET /{container}?fields=status_code,status` answers (docs/networks.md#instagram-publishing). */
export interface InstagramContainer {
  id: string;
  status_code?: 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED' | string;
  status?: string;
}

/** An IG Media node, with the fields Herald reads after publishing. */
export interface InstagramMedia {
  id: string;
  caption?: string;
  timestamp?: string;
  permalink?: string;
  shortcode?: string;
}

/** An IG Comment (docs/networks.md#instagram-comments); `replies` only on top-level comments. */
export interface InstagramCommentNode {
  id: string;
  text?: string;
  timestamp?: string;
  username?: string;
  from?: { id?: string; username?: string };
  like_count?: number;
  hidden?: boolean;
  parent_id?: string;
  replies?: GraphList<InstagramCommentNode>;
}

const COMMENT_FIELDS = 'id,text,timestamp,username,from{id,username},like_count,hidden,parent_id';
const MEDIA_FIELDS = 'id,caption,timestamp,permalink,shortcode';

/** Container parameters: `image_url`, or `media_type` + `video_url`, or the CAROUSEL parent. */
export const createContainer = (
  graph: GraphClient,
  igUserId: string,
  token: string,
  params: Record<string, string | undefined>,
) => graph.post<{ id: string }>(`${igUserId}/media`, token, params);

export const readContainer = (graph: GraphClient, containerId: string, token: string) =>
  graph.get<InstagramContainer>(containerId, token, { fields: 'status_code,status' });

export async function readPublishingLimit(graph: GraphClient, igUserId: string, token: string) {
  const body = await graph.get<
    GraphList<{ quota_usage?: number; config?: { quota_total?: number } }>
  >(`${igUserId}/content_publishing_limit`, token, { fields: 'quota_usage,config' });
  const [limit] = body.data ?? [];
  return { usage: limit?.quota_usage ?? 0, total: limit?.config?.quota_total ?? null };
}

/** The visible call (docs/networks.md#instagram-idempotency): never repeated blindly. */
export const publishContainer = (
  graph: GraphClient,
  igUserId: string,
  token: string,
  creationId: string,
) => graph.publish<{ id: string }>(`${igUserId}/media_publish`, token, { creation_id: creationId });

export const readMedia = (graph: GraphClient, mediaId: string, token: string) =>
  graph.get<InstagramMedia>(mediaId, token, { fields: 'id,permalink,shortcode' });

export async function listRecentMedia(
  graph: GraphClient,
  igUserId: string,
  token: string,
  limit: number,
) {
  const body = await graph.get<GraphList<InstagramMedia>>(`${igUserId}/media`, token, {
    fields: MEDIA_FIELDS,
    limit: String(limit),
  });
  return body.data ?? [];
}

export const listMediaComments = (
  graph: GraphClient,
  mediaId: string,
  token: string,
  page: { limit: number; after?: string },
) =>
  graph.get<GraphList<InstagramCommentNode>>(`${mediaId}/comments`, token, {
    fields: `${COMMENT_FIELDS},replies{${COMMENT_FIELDS}}`,
    limit: String(page.limit),
    after: page.after,
  });

export const readComment = (graph: GraphClient, commentId: string, token: string) =>
  graph.get<InstagramCommentNode>(commentId, token, { fields: COMMENT_FIELDS });

/** Replies land on the top-level comment, even when `commentId` is itself a reply. */
export const replyToComment = (
  graph: GraphClient,
  commentId: string,
  token: string,
  message: string,
) => graph.post<{ id: string }>(`${commentId}/replies`, token, { message });

/** A comment of the account itself on its own media (a first comment): `POST /{ig-media-id}/comments`. */
export const commentOnMedia = (
  graph: GraphClient,
  mediaId: string,
  token: string,
  message: string,
) => graph.post<{ id: string }>(`${mediaId}/comments`, token, { message });

export const deleteComment = (graph: GraphClient, commentId: string, token: string) =>
  graph.delete<{ success?: boolean }>(commentId, token);
