import { PlatformError } from '../errors.js';
import type { InboxAdapter, InboxMessageEvent, InboxThreadRef } from '../inbox-types.js';
import type { GraphList } from '../meta/api.js';
import { absoluteFacebookUrl, graphTimeMs } from '../meta/graph-client.js';
import {
  checkReplyLength,
  createInboxGraph,
  cursorMs,
  dmParticipant,
  findSentDm,
  HUMAN_AGENT_WINDOW_HOURS,
  isSubscribed,
  META_INBOX_POLL_MINUTES,
  MESSAGING_WINDOW_HOURS,
  personOf,
  POLL_OVERLAP_MS,
  pollDirectMessages,
  sendDirectMessage,
  sendPrivateReply,
  sentResult,
  subscribeApp,
  walk,
  walkAll,
  lookupInconclusive,
  type MetaInboxIds,
  type MetaInboxOptions,
} from '../meta/inbox.js';
import type { MetaUrls } from '../meta/urls.js';
import type { AdapterSettings, StoredAccount } from '../types.js';

/** Messenger's longest text message. */
export const MESSENGER_TEXT_MAX = 2000;
/** The longest comment Facebook takes (docs/inbox.md#facebook-and-instagram). */
export const FACEBOOK_COMMENT_MAX = 8000;
/** Page webhook fields Herald subscribes to (docs/inbox.md#facebook-and-instagram). */
export const FACEBOOK_WEBHOOK_FIELDS = ['messages', 'message_echoes', 'feed'] as const;
/** Recent Page posts whose comments a poll reads. */
const POSTS_PER_POLL = 10;

interface PostNode {
  id: string;
  message?: string;
  created_time?: string;
  permalink_url?: string;
}

interface FeedComment {
  id: string;
  message?: string;
  created_time?: string;
  from?: { id?: string; name?: string };
  parent?: { id: string };
  is_hidden?: boolean;
}

const COMMENT_FIELDS = 'id,message,created_time,from{id,name},parent{id},is_hidden';

const idsOf = (account: StoredAccount): MetaInboxIds => ({
  pageId: typeof account.extra.pageId === 'string' ? account.extra.pageId : account.externalId,
  accountId: account.externalId,
  token: account.tokens.accessToken,
});

/**
 * The Facebook Page inbox (docs/inbox.md#facebook-and-instagram): Messenger conversations, comments on
 * the Page's posts, private replies, likes, hiding, deleting and blocking, as the Page.
 */
export function createFacebookInbox(
  settings: AdapterSettings<MetaUrls>,
  options: MetaInboxOptions = {},
): InboxAdapter {
  const graph = createInboxGraph(settings, 'Facebook', options);
  const humanAgent = options.humanAgent ?? false;

  function commentEvent(node: FeedComment, post: PostNode, pageId: string): InboxMessageEvent {
    const fromId = node.from?.id ?? '';
    const parent = node.parent?.id ?? null;
    return {
      type: 'message',
      kind: 'comment',
      externalId: node.id,
      threadExternalId: post.id,
      direction: fromId !== '' && fromId === pageId ? 'out' : 'in',
      author: personOf('Facebook', node.from),
      text: node.message ?? '',
      createdAt: new Date(graphTimeMs(node.created_time) ?? 0),
      attachments: [],
      parentExternalId: parent && parent !== post.id ? parent : null,
      rootPost: {
        externalId: post.id,
        permalink: absoluteFacebookUrl(post.permalink_url),
        text: post.message ?? null,
      },
      hidden: node.is_hidden ?? false,
    };
  }

  async function pollComments(ids: MetaInboxIds, since: number | null) {
    const threshold = since === null ? null : since - POLL_OVERLAP_MS;
    const { data: posts } = await graph.get<GraphList<PostNode>>(
      `${ids.pageId}/published_posts`,
      ids.token,
      { fields: 'id,message,created_time,permalink_url', limit: String(POSTS_PER_POLL) },
    );
    const events: InboxMessageEvent[] = [];
    let newest = since ?? 0;
    for (const post of posts ?? []) {
      const newer = (c: FeedComment) =>
        threshold === null || (graphTimeMs(c.created_time) ?? 0) > threshold;
      const comments = await walk<FeedComment>(
        graph,
        `${post.id}/comments`,
        ids.token,
        { filter: 'stream', order: 'reverse_chronological', fields: COMMENT_FIELDS, limit: '100' },
        (page) => newer(page[page.length - 1]!),
        5,
      );
      for (const comment of comments.filter(newer)) {
        newest = Math.max(newest, graphTimeMs(comment.created_time) ?? 0);
        events.push(commentEvent(comment, post, ids.accountId));
      }
    }
    return { events, newest: newest || since };
  }

  return {
    capabilities: () => ({
      dm: true,
      comments: true,
      mentions: false,
      privateReply: true,
      like: true,
      hide: true,
      deleteComment: true,
      block: true,
      dmWindowHours: MESSAGING_WINDOW_HOURS,
      humanAgentWindowHours: humanAgent ? HUMAN_AGENT_WINDOW_HOURS : null,
      replyMaxLength: FACEBOOK_COMMENT_MAX,
      dmMaxLength: MESSENGER_TEXT_MAX,
      limitation:
        'Herald does not read posts that mention the Page: Facebook gives apps no dependable list of them.',
      historyNote: null,
      pollIntervalMinutes: META_INBOX_POLL_MINUTES,
    }),

    async poll(account, cursor) {
      const ids = idsOf(account);
      const dms = await pollDirectMessages(
        graph,
        'Facebook',
        'messenger',
        ids,
        cursorMs(cursor, 'dmSince'),
        500,
      );
      const comments = await pollComments(ids, cursorMs(cursor, 'commentsSince'));
      return {
        events: [...dms.events, ...comments.events],
        cursor: { dmSince: dms.newest, commentsSince: comments.newest },
      };
    },

    async sendDm(account, thread, text) {
      checkReplyLength('Facebook', text, MESSENGER_TEXT_MAX);
      return sendDirectMessage(
        graph,
        idsOf(account),
        thread.participantExternalId,
        text,
        humanAgent,
      );
    },

    async replyToComment(account, thread, commentExternalId, text) {
      checkReplyLength('Facebook', text, FACEBOOK_COMMENT_MAX);
      const target = commentExternalId ?? thread.rootPostExternalId ?? thread.threadExternalId;
      const answer = await graph.send<{ id?: string }>(`${target}/comments`, idsOf(account).token, {
        message: text,
      });
      return sentResult(answer.id);
    },

    async privateReply(account, commentExternalId, text) {
      checkReplyLength('Facebook', text, MESSENGER_TEXT_MAX);
      return sendPrivateReply(graph, idsOf(account), commentExternalId, text);
    },

    personOf: (account, personExternalId) =>
      dmParticipant(graph, 'Facebook', 'messenger', idsOf(account), personExternalId),
    async findSent(account: StoredAccount, thread: InboxThreadRef, text: string, since: Date) {
      const ids = idsOf(account);
      if (thread.kind === 'dm') return findSentDm(graph, 'messenger', ids, thread, text, since);
      const root = thread.rootPostExternalId ?? thread.threadExternalId;
      const threshold = since.getTime() - 60_000;
      const { items: comments, complete } = await walkAll<FeedComment>(
        graph,
        `${root}/comments`,
        ids.token,
        { filter: 'stream', order: 'reverse_chronological', fields: COMMENT_FIELDS, limit: '100' },
        (page) => (graphTimeMs(page[page.length - 1]!.created_time) ?? 0) >= threshold,
        5,
      );
      const match = comments.find(
        (c) =>
          c.from?.id === ids.accountId &&
          (c.message ?? '').trim() === text.trim() &&
          (graphTimeMs(c.created_time) ?? 0) >= threshold,
      );
      if (match)
        return { externalId: match.id, createdAt: new Date(graphTimeMs(match.created_time) ?? 0) };
      if (!complete) throw lookupInconclusive('Facebook');
      return null;
    },

    async like(account, externalId, liked) {
      const { token } = idsOf(account);
      if (liked) await graph.post(`${externalId}/likes`, token, {});
      else await graph.delete(`${externalId}/likes`, token);
    },

    async hide(account, externalId, hidden) {
      await graph.post(externalId, idsOf(account).token, { is_hidden: String(hidden) });
    },

    async deleteComment(account, externalId) {
      await graph.delete(externalId, idsOf(account).token);
    },

    async block(account, personExternalId) {
      const ids = idsOf(account);
      if (!personExternalId) throw new PlatformError('bad_request', 'There is no one to block.');
      await graph.post(`${ids.pageId}/blocked`, ids.token, { user: personExternalId });
    },

    checkSubscription: (account) =>
      isSubscribed(graph, idsOf(account), settings.clientId, FACEBOOK_WEBHOOK_FIELDS),

    subscribe: (account) => subscribeApp(graph, idsOf(account), FACEBOOK_WEBHOOK_FIELDS),
  };
}
