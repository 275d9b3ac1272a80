import { PlatformError } from '../errors.js';
import type { NetworkComment, PublishingAdapter, StoredAccount } from '../types.js';
import type { XUser } from './api.js';
import { X_REPLY_TWEET_FIELDS, X_SEARCH_PAGE } from './limits.js';
import type { XPublishApi, XTweetData } from './publish-api.js';
import { visibleCall } from './visible-call.js';

interface XCommentDeps {
  api: XPublishApi;
  profileOf(
    account: StoredAccount,
  ): Promise<{ username: string; name: string; pictureUrl: string | null }>;
  finalizeTimeoutMs: number;
}

const decode = (text: string) =>
  text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const parentOf = (t: XTweetData) => t.referenced_tweets?.find((r) => r.type === 'replied_to')?.id;

/** X's words when a reply was refused because its author had not "summoned" the account. */
const NOT_SUMMONED = /not been mentioned or otherwise engaged|summon/i;

/**
 * X's reply restriction (docs/networks.md#x-comments): an app may reply only when the author of the
 * post it answers mentioned or quoted the account. Said so, with what to do instead.
 */
export function notSummonedExplained(err: unknown): unknown {
  if (!(err instanceof PlatformError) || err.details.status !== 403) return err;
  if (!NOT_SUMMONED.test(err.message)) return err;
  return new PlatformError(
    'bad_request',
    'X only accepts a reply sent through an app when the person you answer has mentioned or quoted your account (X calls this being “summoned”). This comment did not, so answer it on X itself.',
    err.details,
  );
}

/**
 * Replies on X (docs/networks.md#x-comments, #comment-mapping): read through recent search on the post's
 * conversation (last 7 days), answered with `POST /2/tweets` + `reply`, deleted with
 * `DELETE /2/tweets/{id}` when they are ours. X cannot edit a reply through the API.
 */
export function createXComments(
  deps: XCommentDeps,
): Pick<PublishingAdapter, 'listComments' | 'reply' | 'deleteComment'> {
  const { api } = deps;

  function toComment(t: XTweetData, users: Map<string, XUser>, own: string): NetworkComment {
    const user = t.author_id ? users.get(t.author_id) : undefined;
    return {
      id: t.id,
      message: decode(t.text),
      likes: t.public_metrics?.like_count ?? 0,
      createdTime: t.created_at ?? new Date(0).toISOString(),
      from: {
        id: t.author_id ?? '',
        name: user?.name ?? user?.username ?? 'X user',
        pictureUrl: user?.profile_image_url ?? null,
      },
      isOwn: t.author_id === own,
      replies: [],
    };
  }

  return {
    async listComments(account, externalId, page) {
      const maxResults = Math.min(X_SEARCH_PAGE.max, Math.max(X_SEARCH_PAGE.min, page.limit));
      const answer = await api.conversation(account.tokens.accessToken, externalId, {
        maxResults,
        nextToken: page.cursor,
        tweetFields: X_REPLY_TWEET_FIELDS,
      });
      const users = new Map((answer.includes?.users ?? []).map((u) => [u.id, u]));
      const tweets = answer.data ?? [];
      const byId = new Map(tweets.map((t) => [t.id, toComment(t, users, account.externalId)]));
      const top: NetworkComment[] = [];
      // X answers newest first; replies under a comment read better oldest first.
      for (const t of [...tweets].reverse()) {
        const comment = byId.get(t.id)!;
        const parent = parentOf(t);
        const holder = parent && parent !== externalId ? byId.get(parent) : undefined;
        if (holder) holder.replies.push(comment);
        else top.unshift(comment);
      }
      return { comments: top, nextCursor: answer.meta?.next_token ?? null };
    },

    async reply(account, target, message) {
      const inReplyTo = target.commentId || target.externalId;
      const created = await visibleCall('the reply', deps.finalizeTimeoutMs, (signal) =>
        api.createTweet(
          account.tokens.accessToken,
          { text: message, reply: { in_reply_to_tweet_id: inReplyTo } },
          signal,
        ),
      ).catch((err: unknown) => {
        throw notSummonedExplained(err);
      });
      if (!created?.id)
        throw new PlatformError('unknown_outcome', 'X accepted the reply without giving its id.');
      const me = await deps.profileOf(account).catch(() => null);
      return {
        id: created.id,
        message,
        likes: 0,
        createdTime: new Date().toISOString(),
        from: {
          id: account.externalId,
          name: me?.name ?? me?.username ?? 'You',
          pictureUrl: me?.pictureUrl ?? null,
        },
        isOwn: true,
        replies: [],
      };
    },

    async deleteComment(account, commentId) {
      try {
        if (!(await api.deleteTweet(account.tokens.accessToken, commentId)))
          throw new PlatformError('bad_request', 'X did not delete the reply.');
      } catch (err) {
        // Already gone is what the caller wanted.
        if (err instanceof PlatformError && err.details.code === 'resource-not-found') return;
        throw err;
      }
    },
  };
}
