import type { InboxAdapter, InboxCapabilities, InboxMessageEvent } from '../inbox-types.js';
import type { AdapterSettings, StoredAccount } from '../types.js';
import { createYouTubeApi, type YouTubeComment, type YouTubeUrls } from './api.js';
import { YOUTUBE_COMMENT_MAX } from './limits.js';
import { parentCommentOf } from './publishing.js';

/**
 * Every 30 minutes: one list call (1 unit) per channel and poll keeps the inbox far inside the
 * project's 10,000 daily units.
 */
export const YOUTUBE_INBOX_POLL_MINUTES = 30;

/**
 * The YouTube inbox (docs/networks.md#youtube-inbox): YouTube has no direct messages, so the
 * comments on the channel's videos are its inbox (`commentThreads.list
 * ?allThreadsRelatedToChannelId=`, newest first, read until the newest one seen). A reply is a
 * `comments.insert` under the thread's top-level comment.
 */
export function createYouTubeInbox(settings: AdapterSettings<YouTubeUrls>): InboxAdapter {
  const api = createYouTubeApi(settings);
  const token = (account: StoredAccount) => account.tokens.accessToken;

  const event = (
    account: StoredAccount,
    c: YouTubeComment,
    threadId: string,
    videoId: string | undefined,
  ): InboxMessageEvent => {
    const author = c.snippet.authorChannelId?.value ?? '';
    return {
      type: 'message',
      kind: 'comment',
      externalId: c.id,
      threadExternalId: threadId,
      direction: author === account.externalId ? 'out' : 'in',
      author: {
        externalId: author,
        name: c.snippet.authorDisplayName ?? 'YouTube user',
        username: null,
        pictureUrl: c.snippet.authorProfileImageUrl ?? null,
        profileUrl: author ? `https://www.youtube.com/channel/${author}` : null,
      },
      text: c.snippet.textOriginal ?? c.snippet.textDisplay ?? '',
      createdAt: new Date(c.snippet.publishedAt ?? Date.now()),
      attachments: [],
      parentExternalId: c.snippet.parentId ?? null,
      rootPost: videoId
        ? {
            externalId: videoId,
            permalink: `https://www.youtube.com/watch?v=${videoId}`,
            text: null,
          }
        : null,
    };
  };

  return {
    capabilities: (): InboxCapabilities => ({
      dm: false,
      comments: true,
      mentions: false,
      privateReply: false,
      like: false,
      likeUnavailable: 'YouTube does not let apps like comments.',
      hide: false,
      deleteComment: true,
      block: false,
      dmWindowHours: null,
      humanAgentWindowHours: null,
      replyMaxLength: YOUTUBE_COMMENT_MAX,
      limitation:
        'YouTube has no direct messages: its inbox is the comments on the channel’s videos.',
      historyNote: null,
      pollIntervalMinutes: YOUTUBE_INBOX_POLL_MINUTES,
    }),

    async poll(account, cursor) {
      const since = typeof cursor?.since === 'string' ? Date.parse(cursor.since) : 0;
      const page = await api.commentThreads(token(account), {
        allThreadsRelatedToChannelId: account.externalId,
      });
      const events: InboxMessageEvent[] = [];
      let newest = since;
      for (const thread of page.threads) {
        const videoId = thread.snippet.videoId;
        let replies = thread.replies?.comments ?? [];
        // The thread carries only some replies: the rest come from comments.list.
        if ((thread.snippet.totalReplyCount ?? 0) > replies.length)
          replies = await api.replies(token(account), thread.snippet.topLevelComment.id);
        for (const c of [thread.snippet.topLevelComment, ...replies]) {
          const at = Date.parse(c.snippet.publishedAt ?? '') || 0;
          if (at <= since) continue;
          newest = Math.max(newest, at);
          events.push(event(account, c, thread.id, videoId));
        }
      }
      return { events, cursor: { since: new Date(newest).toISOString() } };
    },

    async replyToComment(account, thread, commentExternalId, text) {
      const parent = parentCommentOf(commentExternalId ?? thread.threadExternalId);
      const made = await api.insertReply(token(account), parent, text);
      return { externalId: made.id, createdAt: new Date(made.snippet.publishedAt ?? Date.now()) };
    },
  };
}
