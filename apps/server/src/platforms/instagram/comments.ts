import { graphTimeToIso, type GraphClient } from '../meta/graph-client.js';
import { META_COMMENTS_PAGE_MAX } from '../meta/limits.js';
import type { NetworkComment, PublishingAdapter } from '../types.js';
import {
  deleteComment,
  igTokenOf,
  igUserIdOf,
  listMediaComments,
  readComment,
  replyToComment,
  type InstagramCommentNode,
} from './api.js';

/** An IG comment in Herald's shape (docs/networks.md#comment-mapping); the author is `from`, else the bare `username`. */
export function toNetworkComment(node: InstagramCommentNode, ownId: string): NetworkComment {
  const authorId = node.from?.id ?? '';
  return {
    id: node.id,
    message: node.text ?? '',
    likes: node.like_count ?? 0,
    createdTime: graphTimeToIso(node.timestamp),
    from: { id: authorId, name: node.from?.username ?? node.username ?? '', pictureUrl: null },
    isOwn: authorId !== '' && authorId === ownId,
    replies: (node.replies?.data ?? []).map((reply) => toNetworkComment(reply, ownId)),
  };
}

/**
 * Instagram comment threads (docs/networks.md#instagram-comments): list with replies, reply, delete. Instagram has no way to
 * edit a comment, so there is no `editComment`.
 */
export function createInstagramComments(
  graph: GraphClient,
): Pick<PublishingAdapter, 'listComments' | 'reply' | 'deleteComment'> {
  return {
    async listComments(account, externalId, page) {
      const body = await listMediaComments(graph, externalId, igTokenOf(account), {
        limit: Math.min(Math.max(page.limit, 1), META_COMMENTS_PAGE_MAX),
        after: page.cursor,
      });
      const ownId = igUserIdOf(account);
      return {
        comments: (body.data ?? []).map((node) => toNetworkComment(node, ownId)),
        nextCursor: body.paging?.next ? (body.paging.cursors?.after ?? null) : null,
      };
    },

    async reply(account, target, message) {
      const token = igTokenOf(account);
      const ownId = igUserIdOf(account);
      const { id } = await replyToComment(graph, target.commentId, token, message);
      try {
        return toNetworkComment(await readComment(graph, id, token), ownId);
      } catch {
        // The reply exists; reading it back is only for its timestamp and author name.
        return {
          id,
          message,
          likes: 0,
          createdTime: new Date().toISOString(),
          from: { id: ownId, name: '', pictureUrl: null },
          isOwn: true,
          replies: [],
        };
      }
    },

    async deleteComment(account, commentId) {
      await deleteComment(graph, commentId, igTokenOf(account));
    },
  };
}
