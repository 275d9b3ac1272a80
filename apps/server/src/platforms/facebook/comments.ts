import { graphTimeToIso, type GraphClient } from '../meta/graph-client.js';
import { META_COMMENTS_PAGE_MAX } from '../meta/limits.js';
import type { NetworkComment, PublishingAdapter } from '../types.js';
import {
  deleteComment,
  editComment,
  listPostComments,
  readComment,
  replyToComment,
  type FacebookCommentNode,
} from './api.js';

/** Facebook hides who commented when they have not authorized the app (docs/networks.md#facebook-comments). */
const UNKNOWN_AUTHOR = 'Facebook user';

/** A Page-post comment in Herald's shape (docs/networks.md#comment-mapping). */
export function toNetworkComment(node: FacebookCommentNode, pageId: string): NetworkComment {
  const authorId = node.from?.id ?? '';
  return {
    id: node.id,
    message: node.message ?? '',
    likes: node.like_count ?? 0,
    createdTime: graphTimeToIso(node.created_time),
    from: { id: authorId, name: node.from?.name || UNKNOWN_AUTHOR, pictureUrl: null },
    isOwn: authorId !== '' && authorId === pageId,
    replies: (node.comments?.data ?? []).map((reply) => toNetworkComment(reply, pageId)),
  };
}

/** Comment threads on Page posts (docs/networks.md#facebook-comments), as the Page: list, reply, edit, delete. */
export function createFacebookComments(
  graph: GraphClient,
): Pick<PublishingAdapter, 'listComments' | 'reply' | 'editComment' | 'deleteComment'> {
  return {
    async listComments(account, externalId, page) {
      const body = await listPostComments(graph, externalId, account.tokens.accessToken, {
        limit: Math.min(Math.max(page.limit, 1), META_COMMENTS_PAGE_MAX),
        after: page.cursor,
      });
      return {
        comments: (body.data ?? []).map((node) => toNetworkComment(node, account.externalId)),
        nextCursor: body.paging?.next ? (body.paging.cursors?.after ?? null) : null,
      };
    },

    async reply(account, target, message) {
      const token = account.tokens.accessToken;
      const { id } = await replyToComment(graph, target.commentId, token, message);
      try {
        return toNetworkComment(await readComment(graph, id, token), account.externalId);
      } catch {
        // The reply exists; reading it back is only for its timestamp and the Page's name.
        return {
          id,
          message,
          likes: 0,
          createdTime: new Date().toISOString(),
          from: { id: account.externalId, name: '', pictureUrl: null },
          isOwn: true,
          replies: [],
        };
      }
    },

    async editComment(account, commentId, message) {
      await editComment(graph, commentId, account.tokens.accessToken, message);
    },

    async deleteComment(account, commentId) {
      await deleteComment(graph, commentId, account.tokens.accessToken);
    },
  };
}
