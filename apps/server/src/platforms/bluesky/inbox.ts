import type { InboxPerson } from '@herald/contract';
import { PlatformError } from '../errors.js';
import type { InboxAdapter, InboxCapabilities, InboxMessageEvent } from '../inbox-types.js';
import type { PublishingAdapter, StoredAccount } from '../types.js';
import { type BlueskyApi, type ProfileView, parseAtUri, pdsOf, accessOf } from './api.js';
import { BLUESKY_LIMITS } from './limits.js';
import { permalinkOf } from './publishing.js';

/** Every 5 minutes: one or two reads per poll, far inside 3,000 requests per 5 minutes. */
export const BLUESKY_INBOX_POLL_MINUTES = 5;
/** `chat.bsky.convo.sendMessage` text: at most 1,000 graphemes. */
const DM_MAX = 1000;

const token = (account: StoredAccount) => accessOf(account);
const hasDmAccess = (account: StoredAccount) => account.extra.dmAccess === true;

/**
 * The Bluesky inbox (docs/networks.md#bluesky-inbox): mentions, replies and quotes from
 * `app.bsky.notification.listNotifications`, and direct messages through the chat service
 * (`chat.bsky.convo.*`, proxied by the account's PDS) when the app password allows them. Answers
 * are posts replying to the mention, or messages in the conversation.
 */
export function createBlueskyInbox(
  api: BlueskyApi,
  publishing: Pick<PublishingAdapter, 'reply'>,
): InboxAdapter {
  const person = (p: ProfileView): InboxPerson => ({
    externalId: p.did,
    name: p.displayName || p.handle,
    username: p.handle,
    pictureUrl: p.avatar ?? null,
    profileUrl: `${api.urls.web.replace(/\/+$/, '')}/profile/${p.handle}`,
  });

  async function directMessages(account: StoredAccount): Promise<InboxMessageEvent[]> {
    const pds = pdsOf(account);
    const { convos } = await api.convos(pds, token(account), BLUESKY_LIMITS.pageSize);
    const events: InboxMessageEvent[] = [];
    for (const convo of convos) {
      const other = convo.members.find((m) => m.did !== account.externalId);
      const { messages } = await api.messages(
        pds,
        token(account),
        convo.id,
        BLUESKY_LIMITS.pageSize,
      );
      for (const m of messages) {
        if (m.text === undefined) continue; // a deleted message
        const own = m.sender.did === account.externalId;
        const self = convo.members.find((p) => p.did === account.externalId);
        const author = own ? self : other;
        events.push({
          type: 'message',
          kind: 'dm',
          externalId: m.id,
          threadExternalId: convo.id,
          direction: own ? 'out' : 'in',
          author: author
            ? person(author)
            : {
                externalId: m.sender.did,
                name: m.sender.did,
                username: null,
                pictureUrl: null,
                profileUrl: null,
              },
          ...(other ? { counterpart: person(other) } : {}),
          text: m.text,
          createdAt: new Date(m.sentAt),
          attachments: [],
        });
      }
    }
    return events;
  }

  return {
    capabilities: (account): InboxCapabilities => ({
      dm: hasDmAccess(account),
      comments: false,
      mentions: true,
      privateReply: false,
      like: false,
      likeUnavailable: 'Herald does not like posts on Bluesky yet.',
      hide: false,
      deleteComment: false,
      block: false,
      dmWindowHours: null,
      humanAgentWindowHours: null,
      replyMaxLength: BLUESKY_LIMITS.textGraphemes,
      dmMaxLength: DM_MAX,
      limitation: hasDmAccess(account)
        ? 'Replies to your posts also appear on the post (Comments).'
        : 'Direct messages need an app password created with access to direct messages; reconnect the account with one to see them here.',
      historyNote: `Herald reads the latest ${BLUESKY_LIMITS.pageSize} mentions, replies and quotes.`,
      pollIntervalMinutes: BLUESKY_INBOX_POLL_MINUTES,
    }),

    async poll(account, cursor) {
      const seen = typeof cursor?.seenAt === 'string' ? cursor.seenAt : null;
      const { notifications } = await api.notifications(
        pdsOf(account),
        token(account),
        undefined,
        BLUESKY_LIMITS.pageSize,
      );
      const events: InboxMessageEvent[] = [];
      for (const n of notifications) {
        if (!['mention', 'reply', 'quote'].includes(n.reason)) continue;
        if (seen && n.indexedAt <= seen) continue;
        const root = n.record.reply?.root?.uri ?? n.reasonSubject ?? null;
        events.push({
          type: 'message',
          kind: 'mention',
          externalId: n.uri,
          threadExternalId: n.uri,
          direction: n.author.did === account.externalId ? 'out' : 'in',
          author: person(n.author),
          text: n.record.text ?? '',
          createdAt: new Date(n.record.createdAt ?? n.indexedAt),
          attachments: [],
          rootPost:
            root && root.startsWith('at://')
              ? { externalId: root, permalink: permalinkOf(api.urls.web, root), text: null }
              : null,
        });
      }
      const dms = hasDmAccess(account) ? await directMessages(account) : [];
      const newest =
        notifications
          .map((n) => n.indexedAt)
          .sort()
          .at(-1) ?? seen;
      return { events: [...events, ...dms], cursor: { seenAt: newest } };
    },

    async replyToComment(account, thread, commentExternalId, text) {
      const target = commentExternalId ?? thread.threadExternalId;
      parseAtUri(target);
      const sent = await publishing.reply!(
        account,
        { externalId: target, commentId: target },
        text,
      );
      return { externalId: sent.id, createdAt: new Date(sent.createdTime) };
    },

    async sendDm(account, thread, text) {
      if (!hasDmAccess(account))
        throw new PlatformError(
          'bad_request',
          'This Bluesky account was connected with an app password without access to direct messages. Create one that allows them and reconnect the account.',
        );
      const sent = await api.sendMessage(
        pdsOf(account),
        token(account),
        thread.threadExternalId,
        text,
      );
      return { externalId: sent.id, createdAt: new Date(sent.sentAt) };
    },
  };
}
