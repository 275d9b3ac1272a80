import type { Comment } from '@herald/contract';

/**
 * Changes to a thread of comments (comments with nested replies), without touching the rest:
 * what a reply, an edit or a delete does to the comments already on screen.
 */

/** Adds `reply` at the end of the replies of the comment `parentId`, wherever it is nested. */
export function addReply(comments: Comment[], parentId: string, reply: Comment): Comment[] {
  return comments.map((comment) => {
    if (comment.id === parentId) return { ...comment, replies: [...comment.replies, reply] };
    if (comment.replies.length === 0) return comment;
    return { ...comment, replies: addReply(comment.replies, parentId, reply) };
  });
}

/** The comment `id` with its new text; its author, likes, time and replies stay. */
export function editMessage(comments: Comment[], id: string, message: string): Comment[] {
  return comments.map((comment) => {
    if (comment.id === id) return { ...comment, message };
    if (comment.replies.length === 0) return comment;
    return { ...comment, replies: editMessage(comment.replies, id, message) };
  });
}

/** The thread without the comment `id` (and its replies). */
export function removeComment(comments: Comment[], id: string): Comment[] {
  return comments
    .filter((comment) => comment.id !== id)
    .map((comment) =>
      comment.replies.length === 0
        ? comment
        : { ...comment, replies: removeComment(comment.replies, id) },
    );
}
