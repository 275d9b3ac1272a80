import type { InboxPerson } from '@herald/contract';
import type {
  InboxAdapter,
  InboxCapabilities,
  InboxMessageEvent,
  InboxThreadRef,
} from '../inbox-types.js';
import type { AdapterSettings, StoredAccount } from '../types.js';
import {
  createMastodonApi,
  instanceOf,
  type MastodonAccount,
  type MastodonStatus,
  type MastodonUrls,
} from './api.js';
import { storedLimitsOf } from './limits.js';
import { plainText } from './publishing.js';

/** Every 5 minutes: two reads per poll, far inside 300 requests per 5 minutes per account. */
export const MASTODON_INBOX_POLL_MINUTES = 5;

/** A person of the fediverse, by their full handle (`@name@server`) on their profile page. */
function personOf(account: MastodonAccount, instance: string): InboxPerson {
  const acct = account.acct.includes('@') ? account.acct : `${account.acct}@${instance}`;
  return {
    externalId: account.id,
    name: account.display_name || account.username,
    username: acct,
    pictureUrl: account.avatar ?? null,
    profileUrl: account.url ?? null,
  };
}

/**
 * The Mastodon inbox (docs/networks.md#mastodon-inbox): mentions and quotes of the account's
 * statuses (`GET /api/v1/notifications` with `types[]=mention&types[]=quote`, read since the
 * newest one seen; a quote names the status it quotes) and direct conversations
 * (`GET /api/v1/conversations`, their latest status each). Answers are statuses: a reply to the
 * mention, or a `direct` status to the conversation's people.
 */
export function createMastodonInbox(settings: AdapterSettings<MastodonUrls>): InboxAdapter {
  const api = createMastodonApi(settings);
  const token = (account: StoredAccount) => account.tokens.accessToken;

  const event = (
    account: StoredAccount,
    status: MastodonStatus,
    kind: 'dm' | 'mention',
    threadExternalId: string,
  ): InboxMessageEvent => {
    const instance = instanceOf(account);
    const own = status.account.id === String(account.extra.accountId ?? '');
    return {
      type: 'message',
      kind,
      externalId: status.id,
      threadExternalId,
      direction: own ? 'out' : 'in',
      author: personOf(status.account, instance),
      text: plainText(status.content),
      createdAt: new Date(status.created_at),
      attachments: [],
      parentExternalId: status.in_reply_to_id ?? null,
    };
  };

  async function post(account: StoredAccount, body: Record<string, unknown>, key: string) {
    const status = await api.postStatus(instanceOf(account), token(account), key, body);
    return { externalId: status.id, createdAt: new Date(status.created_at) };
  }

  const keyOf = (thread: InboxThreadRef, text: string) =>
    `herald-inbox-${thread.threadExternalId}-${Buffer.from(text).toString('base64url').slice(0, 40)}`;

  return {
    capabilities: (account): InboxCapabilities => ({
      dm: true,
      comments: false,
      mentions: true,
      privateReply: false,
      like: true,
      hide: false,
      deleteComment: false,
      block: false,
      dmWindowHours: null,
      humanAgentWindowHours: null,
      replyMaxLength: storedLimitsOf(account.extra.limits).maxCharacters,
      limitation:
        'Replies to your posts appear on the post (Comments); the inbox holds mentions and direct conversations.',
      historyNote: 'Herald reads the latest 40 mentions and quotes, and 40 direct conversations.',
      pollIntervalMinutes: MASTODON_INBOX_POLL_MINUTES,
    }),

    async poll(account, cursor) {
      const instance = instanceOf(account);
      const sinceId = typeof cursor?.sinceId === 'string' ? cursor.sinceId : null;
      const [mentions, conversations] = await Promise.all([
        api.mentionsAndQuotes(instance, token(account), sinceId),
        api.conversations(instance, token(account)),
      ]);
      const events: InboxMessageEvent[] = [];
      for (const n of mentions) {
        if (!n.status || n.status.visibility === 'direct') continue;
        const quoted = n.type === 'quote' ? n.status.quote?.quoted_status : null;
        events.push({
          ...event(account, n.status, 'mention', n.status.id),
          ...(quoted
            ? {
                rootPost: {
                  externalId: quoted.id,
                  permalink: quoted.url ?? null,
                  text: plainText(quoted.content),
                },
              }
            : {}),
        });
      }
      for (const c of conversations) {
        const other = c.accounts[0];
        if (!c.last_status) continue;
        events.push({
          ...event(account, c.last_status, 'dm', c.id),
          ...(other ? { counterpart: personOf(other, instance) } : {}),
        });
      }
      const newest = mentions.map((n) => n.id).sort((a, b) => (BigInt(a) > BigInt(b) ? -1 : 1))[0];
      return { events, cursor: { sinceId: newest ?? sinceId } };
    },

    /** A like is Mastodon's favourite of the status. */
    async like(account, externalId, liked) {
      await api.favourite(instanceOf(account), token(account), externalId, liked);
    },

    async replyToComment(account, thread, commentExternalId, text) {
      return post(
        account,
        { status: text, in_reply_to_id: commentExternalId ?? thread.threadExternalId },
        keyOf(thread, text),
      );
    },

    async sendDm(account, thread, text) {
      // A direct status reaches the people it mentions; replying to the conversation's latest
      // status keeps it in the same conversation.
      const conversations = await api.conversations(instanceOf(account), token(account));
      const conversation = conversations.find((c) => c.id === thread.threadExternalId);
      const person = conversation?.accounts.find((a) => a.id === thread.participantExternalId);
      return post(
        account,
        {
          status: person ? `@${person.acct} ${text}` : text,
          visibility: 'direct',
          ...(conversation?.last_status ? { in_reply_to_id: conversation.last_status.id } : {}),
        },
        keyOf(thread, text),
      );
    },
  };
}
