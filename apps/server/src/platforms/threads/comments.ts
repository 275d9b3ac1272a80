import { PlatformError } from '../errors.js';
import type { NetworkComment, PublishingAdapter, StoredAccount } from '../types.js';
import { THREADS_REPLY_FIELDS, type ThreadsTiming } from './limits.js';
import type { ThreadsMediaNode, ThreadsPublishApi } from './publish-api.js';
import { asUnknownOutcome, graphTimeMs, textProblem } from './publish-rules.js';

/** Levels of replies read under a post: its replies, their replies, and theirs. */
const REPLY_DEPTH = 3;
/** Nested replies read under one reply (the first ones; Threads pages them). */
const NESTED_LIMIT = 25;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Threads replies as comments (docs/networks.md#threads-comments, #comment-mapping): listed with `GET /{id}/replies`,
 * answered with a reply container (`reply_to_id`) + `threads_publish`, and, for the account's
 * own replies, deleted with `DELETE /{id}`. Threads has no edit and no like count on replies.
 */
export function createThreadsComments(
  api: ThreadsPublishApi,
  timing: ThreadsTiming,
): Pick<PublishingAdapter, 'listComments' | 'reply' | 'deleteComment'> {
  function toComment(node: ThreadsMediaNode, account: StoredAccount, replies: NetworkComment[]) {
    const isOwn = node.is_reply_owned_by_me === true;
    const created = graphTimeMs(node.timestamp);
    const comment: NetworkComment = {
      id: node.id,
      message: node.text ?? '',
      likes: 0,
      createdTime: new Date(created ?? Date.now()).toISOString(),
      // Threads names the author only by username (docs/networks.md#comment-mapping): it stands in for the id.
      from: {
        id: isOwn ? account.externalId : (node.username ?? node.id),
        name: node.username ?? 'Threads user',
        pictureUrl: node.profile_picture_url ?? null,
      },
      isOwn,
      replies,
    };
    return comment;
  }

  async function withReplies(
    node: ThreadsMediaNode,
    account: StoredAccount,
    depth: number,
  ): Promise<NetworkComment> {
    if (!node.has_replies || depth >= REPLY_DEPTH) return toComment(node, account, []);
    const page = await api.listReplies(node.id, account.tokens.accessToken, {
      fields: THREADS_REPLY_FIELDS,
      limit: NESTED_LIMIT,
    });
    const replies = await Promise.all(
      (page.data ?? []).map((r) => withReplies(r, account, depth + 1)),
    );
    return toComment(node, account, replies);
  }

  /** Waits (briefly) for a reply's container: text containers are usually ready at once. */
  async function waitUntilReady(containerId: string, token: string) {
    const deadline = Date.now() + timing.replyReadyMs;
    for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
      const { status, error_message } = await api.containerStatus(containerId, token);
      if (status === 'FINISHED') return;
      if (status === 'ERROR' || status === 'EXPIRED')
        throw new PlatformError(
          'bad_request',
          `Threads could not prepare the reply (Threads said: ${error_message ?? status}).`,
        );
      if (Date.now() + delay > deadline)
        throw new PlatformError(
          'transient',
          'Threads is still preparing the reply. Try sending it again in a moment.',
        );
      await wait(delay);
    }
  }

  return {
    async listComments(account, externalId, page) {
      const res = await api.listReplies(externalId, account.tokens.accessToken, {
        fields: THREADS_REPLY_FIELDS,
        limit: page.limit,
        after: page.cursor,
      });
      const comments = await Promise.all(
        (res.data ?? []).map((node) => withReplies(node, account, 1)),
      );
      const after = res.paging?.cursors?.after;
      return { comments, nextCursor: res.paging?.next && after ? after : null };
    },

    async reply(account, target, message) {
      if (!message.trim()) throw new PlatformError('bad_request', 'Reply cannot be empty.');
      const problem = textProblem(message);
      if (problem) throw new PlatformError('bad_request', problem);
      const token = account.tokens.accessToken;
      const containerId = await api.createContainer(account.externalId, token, {
        media_type: 'TEXT',
        text: message,
        reply_to_id: target.commentId,
      });
      await waitUntilReady(containerId, token);
      const id = await api.publish(account.externalId, token, containerId).catch((err) => {
        throw asUnknownOutcome(err);
      });
      const node = await api.getMedia(id, token, THREADS_REPLY_FIELDS).catch(() => null);
      return toComment(
        node ?? { id, text: message, is_reply_owned_by_me: true, timestamp: undefined },
        account,
        [],
      );
    },

    async deleteComment(account, commentId) {
      await api.deleteMedia(commentId, account.tokens.accessToken);
    },
  };
}
