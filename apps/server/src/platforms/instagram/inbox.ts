import type { InboxAdapter, InboxMessageEvent } from '../inbox-types.js';
import type { GraphList } from '../meta/api.js';
import { graphTimeMs } from '../meta/graph-client.js';
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
import { igTokenOf, igUserIdOf } from './api.js';

/** Instagram DMs: 1,000 bytes of text (docs/inbox.md#facebook-and-instagram). */
export const INSTAGRAM_DM_MAX_BYTES = 1000;
/** Instagram comments: 2,200 characters (docs/inbox.md#facebook-and-instagram). */
export const INSTAGRAM_COMMENT_MAX = 2200;
/** Only the 20 newest messages of a conversation can be read through the API. */
export const INSTAGRAM_READABLE_MESSAGES = 20;
/** Fields of the linked Page's subscription that carry Instagram messages. */
export const INSTAGRAM_WEBHOOK_FIELDS = ['messages', 'message_echoes'] as const;
export const INSTAGRAM_HISTORY_NOTE =
  'Instagram gives only the 20 newest messages of each conversation; older history starts when the account was connected.';
const MEDIA_PER_POLL = 25;

interface MediaNode {
  id: string;
  caption?: string;
  permalink?: string;
  timestamp?: string;
  comments_count?: number;
  username?: string;
}

interface IgComment {
  id: string;
  text?: string;
  timestamp?: string;
  from?: { id?: string; username?: string };
  username?: string;
  parent_id?: string;
  hidden?: boolean;
  replies?: GraphList<IgComment>;
}

const COMMENT_FIELDS = 'id,text,timestamp,from{id,username},hidden';

const idsOf = (account: StoredAccount): MetaInboxIds => ({
  pageId: typeof account.extra.pageId === 'string' ? account.extra.pageId : '',
  accountId: igUserIdOf(account),
  token: igTokenOf(account),
});

/**
 * The Instagram inbox through Facebook Login (docs/inbox.md#facebook-and-instagram): DMs
 * through the linked Page, comments on the account's media, and media it is tagged in. The API
 * cannot like a comment or block a person.
 */
export function createInstagramInbox(
  settings: AdapterSettings<MetaUrls>,
  options: MetaInboxOptions = {},
): InboxAdapter {
  const graph = createInboxGraph(settings, 'Instagram', options);
  const humanAgent = options.humanAgent ?? false;

  function commentEvent(
    node: IgComment,
    media: MediaNode,
    ownId: string,
    parentId: string | null,
  ): InboxMessageEvent {
    const fromId = node.from?.id ?? '';
    return {
      type: 'message',
      kind: 'comment',
      externalId: node.id,
      threadExternalId: media.id,
      direction: fromId !== '' && fromId === ownId ? 'out' : 'in',
      author: personOf('Instagram', {
        id: fromId,
        username: node.from?.username ?? node.username,
      }),
      text: node.text ?? '',
      createdAt: new Date(graphTimeMs(node.timestamp) ?? 0),
      attachments: [],
      parentExternalId: parentId,
      rootPost: {
        externalId: media.id,
        permalink: media.permalink ?? null,
        text: media.caption ?? null,
      },
      hidden: node.hidden ?? false,
    };
  }

  /** Comments of media whose comment count changed since the last poll. */
  async function pollComments(
    ids: MetaInboxIds,
    counts: Record<string, number>,
    since: number | null,
  ) {
    const threshold = since === null ? null : since - POLL_OVERLAP_MS;
    const { data: media } = await graph.get<GraphList<MediaNode>>(
      `${ids.accountId}/media`,
      ids.token,
      {
        fields: 'id,caption,permalink,timestamp,comments_count',
        limit: String(MEDIA_PER_POLL),
      },
    );
    const events: InboxMessageEvent[] = [];
    const nextCounts: Record<string, number> = {};
    let newest = since ?? 0;
    for (const item of media ?? []) {
      const count = item.comments_count ?? -1;
      nextCounts[item.id] = count;
      if (count === 0 || (count >= 0 && counts[item.id] === count)) continue;
      const comments = await walk<IgComment>(
        graph,
        `${item.id}/comments`,
        ids.token,
        { fields: `${COMMENT_FIELDS},replies{${COMMENT_FIELDS},parent_id}`, limit: '50' },
        () => true,
        5,
      );
      const add = (node: IgComment, parent: string | null) => {
        const at = graphTimeMs(node.timestamp) ?? 0;
        if (threshold !== null && at <= threshold) return;
        newest = Math.max(newest, at);
        events.push(commentEvent(node, item, ids.accountId, parent));
      };
      for (const comment of comments) {
        add(comment, null);
        for (const reply of comment.replies?.data ?? []) add(reply, reply.parent_id ?? comment.id);
      }
    }
    return { events, newest: newest || since, counts: nextCounts };
  }

  /** Media other accounts tagged this account in: each one a mention conversation. */
  async function pollMentions(ids: MetaInboxIds, since: number | null) {
    const threshold = since === null ? null : since - POLL_OVERLAP_MS;
    const { data } = await graph.get<GraphList<MediaNode>>(`${ids.accountId}/tags`, ids.token, {
      fields: 'id,caption,permalink,timestamp,username',
      limit: '25',
    });
    const events: InboxMessageEvent[] = [];
    let newest = since ?? 0;
    for (const media of data ?? []) {
      const at = graphTimeMs(media.timestamp) ?? 0;
      if (threshold !== null && at <= threshold) continue;
      newest = Math.max(newest, at);
      events.push({
        type: 'message',
        kind: 'mention',
        externalId: media.id,
        threadExternalId: media.id,
        direction: 'in',
        author: personOf('Instagram', { id: media.username ?? '', username: media.username }),
        text: media.caption ?? '',
        createdAt: new Date(at),
        attachments: [],
        rootPost: {
          externalId: media.id,
          permalink: media.permalink ?? null,
          text: media.caption ?? null,
        },
      });
    }
    return { events, newest: newest || since };
  }

  return {
    capabilities: () => ({
      dm: true,
      comments: true,
      mentions: true,
      privateReply: true,
      like: false,
      hide: true,
      deleteComment: true,
      block: false,
      dmWindowHours: MESSAGING_WINDOW_HOURS,
      humanAgentWindowHours: humanAgent ? HUMAN_AGENT_WINDOW_HOURS : null,
      replyMaxLength: INSTAGRAM_COMMENT_MAX,
      dmMaxLength: INSTAGRAM_DM_MAX_BYTES,
      limitation:
        "Instagram's API cannot like comments or block people; do that in the Instagram app.",
      historyNote: INSTAGRAM_HISTORY_NOTE,
      pollIntervalMinutes: META_INBOX_POLL_MINUTES,
    }),

    async poll(account, cursor) {
      const ids = idsOf(account);
      const dms = await pollDirectMessages(
        graph,
        'Instagram',
        'instagram',
        ids,
        cursorMs(cursor, 'dmSince'),
        INSTAGRAM_READABLE_MESSAGES,
      );
      const previousCounts =
        cursor && typeof cursor.commentCounts === 'object' && cursor.commentCounts
          ? (cursor.commentCounts as Record<string, number>)
          : {};
      const comments = await pollComments(ids, previousCounts, cursorMs(cursor, 'commentsSince'));
      const mentions = await pollMentions(ids, cursorMs(cursor, 'mentionsSince'));
      return {
        events: [...dms.events, ...comments.events, ...mentions.events],
        cursor: {
          dmSince: dms.newest,
          commentsSince: comments.newest,
          commentCounts: comments.counts,
          mentionsSince: mentions.newest,
        },
      };
    },

    async sendDm(account, thread, text) {
      checkReplyLength('Instagram', text, INSTAGRAM_DM_MAX_BYTES, true);
      return sendDirectMessage(
        graph,
        idsOf(account),
        thread.participantExternalId,
        text,
        humanAgent,
      );
    },

    async replyToComment(account, thread, commentExternalId, text) {
      checkReplyLength('Instagram', text, INSTAGRAM_COMMENT_MAX);
      const ids = idsOf(account);
      if (thread.kind === 'mention') {
        // A reply to a mention is a comment on the other account's media.
        const answer = await graph.send<{ id?: string }>(`${ids.accountId}/mentions`, ids.token, {
          media_id: thread.rootPostExternalId ?? thread.threadExternalId,
          ...(commentExternalId ? { comment_id: commentExternalId } : {}),
          message: text,
        });
        return sentResult(answer.id);
      }
      const answer = commentExternalId
        ? await graph.send<{ id?: string }>(`${commentExternalId}/replies`, ids.token, {
            message: text,
          })
        : await graph.send<{ id?: string }>(
            `${thread.rootPostExternalId ?? thread.threadExternalId}/comments`,
            ids.token,
            { message: text },
          );
      return sentResult(answer.id);
    },

    async privateReply(account, commentExternalId, text) {
      checkReplyLength('Instagram', text, INSTAGRAM_DM_MAX_BYTES, true);
      return sendPrivateReply(graph, idsOf(account), commentExternalId, text);
    },

    personOf: (account, personExternalId) =>
      dmParticipant(graph, 'Instagram', 'instagram', idsOf(account), personExternalId),
    async findSent(account, thread, text, since) {
      const ids = idsOf(account);
      if (thread.kind === 'dm') return findSentDm(graph, 'instagram', ids, thread, text, since);
      const root = thread.rootPostExternalId ?? thread.threadExternalId;
      const { items: comments, complete } = await walkAll<IgComment>(
        graph,
        `${root}/comments`,
        ids.token,
        { fields: `${COMMENT_FIELDS},replies{${COMMENT_FIELDS}}`, limit: '50' },
        () => true,
        5,
      );
      const threshold = since.getTime() - 60_000;
      const all = comments.flatMap((c) => [c, ...(c.replies?.data ?? [])]);
      const match = all.find(
        (c) =>
          c.from?.id === ids.accountId &&
          (c.text ?? '').trim() === text.trim() &&
          (graphTimeMs(c.timestamp) ?? 0) >= threshold,
      );
      if (match)
        return { externalId: match.id, createdAt: new Date(graphTimeMs(match.timestamp) ?? 0) };
      if (!complete) throw lookupInconclusive('Instagram');
      return null;
    },

    async hide(account, externalId, hidden) {
      await graph.post(externalId, idsOf(account).token, { hide: String(hidden) });
    },

    async deleteComment(account, externalId) {
      await graph.delete(externalId, idsOf(account).token);
    },

    checkSubscription: (account) =>
      isSubscribed(graph, idsOf(account), settings.clientId, INSTAGRAM_WEBHOOK_FIELDS),

    subscribe: (account) => subscribeApp(graph, idsOf(account), INSTAGRAM_WEBHOOK_FIELDS),
  };
}
