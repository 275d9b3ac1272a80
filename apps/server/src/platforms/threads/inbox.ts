import type { InboxPerson } from '@herald/contract';
import { PlatformError } from '../errors.js';
import type {
  InboxAdapter,
  InboxCapabilities,
  InboxCursor,
  InboxMessageEvent,
} from '../inbox-types.js';
import { requestJson } from '../oauth.js';
import type { AdapterSettings, StoredAccount } from '../types.js';
import type { ThreadsUrls } from './api.js';
import { createThreadsComments } from './comments.js';
import { describeThreadsError } from './errors.js';
import {
  THREADS_GRAPH_VERSION,
  THREADS_TEXT_MAX,
  THREADS_TIMING,
  type ThreadsTiming,
} from './limits.js';
import { createThreadsPublishApi } from './publish-api.js';
import { graphTimeMs } from './publish-rules.js';

/**
 * The Threads inbox (docs/inbox.md#threads): no direct messages (the API has none), replies on the
 * account's recent posts (`GET /{media}/conversation`) and mentions (`GET /{user}/mentions`),
 * answered with a reply container + `threads_publish`, top-level replies hidden with
 * `manage_reply`.
 */

/** Posts whose replies a poll reads: the newest ones, up to this age. */
export const THREADS_INBOX_POST_AGE_MS = 7 * 86_400_000;
export const THREADS_INBOX_POSTS_PER_POLL = 25;
/** Every 10 minutes: within the 4,800 × impressions per 24 h call budget of small accounts. */
export const THREADS_INBOX_POLL_MINUTES = 10;
export const THREADS_INBOX_LIMITATION =
  'Threads has no API for direct messages, so messages sent to this account on Threads do not appear here.';
export const THREADS_INBOX_HISTORY =
  'Herald reads the replies to posts of the last 7 days and the mentions Threads keeps.';

export const THREADS_INBOX_FIELDS = [
  'id',
  'text',
  'username',
  'permalink',
  'timestamp',
  'media_type',
  'is_reply',
  'root_post',
  'replied_to',
  'is_reply_owned_by_me',
  'hide_status',
  'profile_picture_url',
] as const;

export interface ThreadsInboxNode {
  id: string;
  text?: string;
  username?: string;
  permalink?: string;
  timestamp?: string;
  root_post?: { id: string; owner_id?: string; username?: string };
  replied_to?: { id: string };
  is_reply_owned_by_me?: boolean;
  hide_status?: string;
  profile_picture_url?: string;
}

interface Page<T> {
  data?: T[];
  paging?: { cursors?: { after?: string }; next?: string };
}

/** Threads names other people by username only: it stands in for their id. */
export function threadsPerson(username: string | undefined, picture?: string): InboxPerson {
  return {
    externalId: username ?? 'unknown',
    name: username ?? null,
    username: username ?? null,
    pictureUrl: picture ?? null,
    profileUrl: username ? `https://www.threads.com/@${username}` : null,
  };
}

const timeOf = (node: ThreadsInboxNode) => graphTimeMs(node.timestamp) ?? Date.now();

/** A reply on one of our posts, in the comment thread of its root post. */
export function threadsReplyEvent(
  node: ThreadsInboxNode,
  rootId: string,
  own: boolean,
  root?: { permalink?: string | null; text?: string | null },
): InboxMessageEvent {
  const parent = node.replied_to?.id;
  return {
    type: 'message',
    kind: 'comment',
    externalId: node.id,
    threadExternalId: rootId,
    direction: own ? 'out' : 'in',
    author: threadsPerson(node.username, node.profile_picture_url),
    text: node.text ?? '',
    createdAt: new Date(timeOf(node)),
    attachments: [],
    parentExternalId: parent && parent !== rootId ? parent : null,
    rootPost: { externalId: rootId, permalink: root?.permalink ?? null, text: root?.text ?? null },
    hidden: node.hide_status === 'HIDDEN',
  };
}

/** A post (or reply) elsewhere that names the account: its own conversation. */
export function threadsMentionEvent(node: ThreadsInboxNode): InboxMessageEvent {
  return {
    type: 'message',
    kind: 'mention',
    externalId: node.id,
    threadExternalId: node.id,
    direction: 'in',
    author: threadsPerson(node.username, node.profile_picture_url),
    text: node.text ?? '',
    createdAt: new Date(timeOf(node)),
    attachments: [],
    parentExternalId: null,
    rootPost: { externalId: node.id, permalink: node.permalink ?? null, text: node.text ?? null },
  };
}

interface ThreadsInboxCursor {
  /** Newest reply time seen (ms) and the ids seen at exactly that time. */
  repliesAt?: number;
  repliesAtIds?: string[];
  /** Mentions: the same. */
  mentionsAt?: number;
  mentionsAtIds?: string[];
}

/** Items newer than the cursor (or at its time and not seen), and the cursor after them. */
function advance<T>(
  items: T[],
  idOf: (t: T) => string,
  time: (t: T) => number,
  at: number | undefined,
  atIds: string[] | undefined,
) {
  const seen = new Set(atIds ?? []);
  const fresh = items.filter(
    (i) => at === undefined || time(i) > at || (time(i) === at && !seen.has(idOf(i))),
  );
  let newest = at;
  let ids = new Set(atIds ?? []);
  for (const i of fresh) {
    const t = time(i);
    if (newest === undefined || t > newest) {
      newest = t;
      ids = new Set([idOf(i)]);
    } else if (t === newest) ids.add(idOf(i));
  }
  return { fresh, at: newest, ids: [...ids] };
}

export function createThreadsInbox(
  settings: AdapterSettings<ThreadsUrls>,
  timing: ThreadsTiming = THREADS_TIMING,
): InboxAdapter {
  const api = createThreadsPublishApi(settings, timing);
  const comments = createThreadsComments(api, timing);
  const base = `${settings.urls.graphBase}/${THREADS_GRAPH_VERSION}`;
  const graph = <T>(
    method: 'GET' | 'POST',
    path: string,
    account: StoredAccount,
    params: Record<string, string | undefined> = {},
  ) => {
    const defined = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
    const query = new URLSearchParams(method === 'GET' ? defined : []);
    query.set('access_token', account.tokens.accessToken);
    return requestJson<T>(
      settings.http,
      'Threads',
      `${base}${path}?${query}`,
      method === 'POST'
        ? {
            method,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(defined).toString(),
          }
        : { method },
      describeThreadsError,
    );
  };
  const fields = THREADS_INBOX_FIELDS.join(',');

  async function allPages<T>(path: string, account: StoredAccount, params: Record<string, string>) {
    const items: T[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page++) {
      const answer = await graph<Page<T>>('GET', path, account, { ...params, limit: '100', after });
      items.push(...(answer.data ?? []));
      after = answer.paging?.cursors?.after;
      if (!answer.paging?.next || !after) break;
    }
    return items;
  }

  async function recentReplies(account: StoredAccount) {
    const posts = await graph<Page<ThreadsInboxNode>>(
      'GET',
      `/${encodeURIComponent(account.externalId)}/threads`,
      account,
      { fields: 'id,text,permalink,timestamp', limit: String(THREADS_INBOX_POSTS_PER_POLL) },
    );
    const since = Date.now() - THREADS_INBOX_POST_AGE_MS;
    const events: InboxMessageEvent[] = [];
    for (const post of posts.data ?? []) {
      if (timeOf(post) < since) continue;
      const replies = await allPages<ThreadsInboxNode>(
        `/${encodeURIComponent(post.id)}/conversation`,
        account,
        { fields, reverse: 'false' },
      );
      for (const r of replies)
        events.push(threadsReplyEvent(r, post.id, r.is_reply_owned_by_me === true, post));
    }
    return events;
  }

  return {
    capabilities(): InboxCapabilities {
      return {
        dm: false,
        comments: true,
        mentions: true,
        privateReply: false,
        // The Threads API has no call to like a reply.
        like: false,
        hide: true,
        // Only the account's own replies can be deleted.
        deleteComment: false,
        block: false,
        dmWindowHours: null,
        humanAgentWindowHours: null,
        replyMaxLength: THREADS_TEXT_MAX,
        limitation: THREADS_INBOX_LIMITATION,
        historyNote: THREADS_INBOX_HISTORY,
        pollIntervalMinutes: THREADS_INBOX_POLL_MINUTES,
      };
    },

    async poll(account, cursor) {
      const state = (cursor ?? {}) as ThreadsInboxCursor;
      const replies = advance(
        await recentReplies(account),
        (e) => e.externalId,
        (e) => e.createdAt.getTime(),
        state.repliesAt,
        state.repliesAtIds,
      );
      // Accounts connected before the inbox asked for threads_manage_mentions get replies only
      // until they reconnect.
      const mayReadMentions =
        !account.tokens.scopes.length || account.tokens.scopes.includes('threads_manage_mentions');
      const mentionNodes = mayReadMentions
        ? await allPages<ThreadsInboxNode>(
            `/${encodeURIComponent(account.externalId)}/mentions`,
            account,
            {
              fields,
              ...(state.mentionsAt !== undefined
                ? { since: String(Math.floor(state.mentionsAt / 1000)) }
                : {}),
            },
          )
        : [];
      const mentions = advance(
        mentionNodes,
        (n) => n.id,
        timeOf,
        state.mentionsAt,
        state.mentionsAtIds,
      );
      const next: ThreadsInboxCursor = {
        repliesAt: replies.at,
        repliesAtIds: replies.ids,
        mentionsAt: mentions.at,
        mentionsAtIds: mentions.ids,
      };
      return {
        events: [...replies.fresh, ...mentions.fresh.map((n) => threadsMentionEvent(n))],
        cursor: next as InboxCursor,
      };
    },

    async replyToComment(account, thread, commentExternalId, text) {
      const root = thread.rootPostExternalId ?? thread.threadExternalId;
      const sent = await comments.reply!(
        account,
        { externalId: root, commentId: commentExternalId ?? root },
        text,
      );
      return { externalId: sent.id, createdAt: new Date(sent.createdTime) };
    },

    async findSent(account, thread, text, since) {
      const root = thread.rootPostExternalId ?? thread.threadExternalId;
      const replies = await allPages<ThreadsInboxNode>(
        `/${encodeURIComponent(root)}/conversation`,
        account,
        { fields, reverse: 'false' },
      );
      const after = since.getTime() - 60_000;
      const hit = replies.find(
        (r) => r.is_reply_owned_by_me === true && r.text === text && timeOf(r) >= after,
      );
      return hit ? { externalId: hit.id, createdAt: new Date(timeOf(hit)) } : null;
    },

    async hide(account, externalId, hidden) {
      const answer = await graph<{ success?: boolean }>(
        'POST',
        `/${encodeURIComponent(externalId)}/manage_reply`,
        account,
        { hide: String(hidden) },
      );
      if (answer?.success !== true)
        throw new PlatformError(
          'bad_request',
          'Threads did not change whether the reply is hidden.',
        );
    },
  };
}
