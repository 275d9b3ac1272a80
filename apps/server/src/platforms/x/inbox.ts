import { countText, type InboxAttachment, type InboxPerson, X_PRICES } from '@herald/contract';
import { PlatformError } from '../errors.js';
import type {
  InboxAdapter,
  InboxCapabilities,
  InboxCursor,
  InboxMessageEvent,
  InboxPollResult,
  InboxSendResult,
  InboxThreadRef,
} from '../inbox-types.js';
import { requestJson } from '../oauth.js';
import type { AdapterSettings, StoredAccount } from '../types.js';
import { withRateLimitReset, type XUrls } from './api.js';
import { notSummonedExplained } from './comments.js';
import { describeXApiError } from './errors.js';
import { X_FINALIZE_TIMEOUT_MS, X_MEDIA_CONSTRAINTS, xTextLimitOf } from './limits.js';
import { visibleCall } from './visible-call.js';

/**
 * X's inbox (docs/inbox.md#x): legacy (unencrypted) direct messages from `GET /2/dm_events`,
 * mentions and replies from the mentions timeline, answered with DMs and reply posts; no likes
 * (X took them out of its self-serve API). Every
 * number comes from X's API documentation and lives here, not in code paths.
 */

/** DM text X accepts in one message. */
export const X_DM_MAX_LENGTH = 10_000;
/**
 * `GET /2/dm_events` allows 15 requests per 15 minutes per user, and X bills every DM event
 * returned ($0.010): one poll every 15 minutes, of up to X_DM_PAGES_PER_POLL pages.
 */
export const X_INBOX_POLL_MINUTES = 15;
export const X_DM_PAGES_PER_POLL = 3;
/** The mentions timeline (300 per 15 min per user) keeps the 800 newest mentions. */
export const X_MENTION_PAGES_PER_POLL = 8;
export const X_PAGE_SIZE = 100;

export const X_DM_EVENT_FIELDS = [
  'id',
  'event_type',
  'text',
  'sender_id',
  'dm_conversation_id',
  'created_at',
  'attachments',
  'referenced_tweets',
  'participant_ids',
] as const;
export const X_MENTION_TWEET_FIELDS = [
  'author_id',
  'created_at',
  'conversation_id',
  'in_reply_to_user_id',
  'referenced_tweets',
  'attachments',
] as const;
const USER_FIELDS = 'username,name,profile_image_url';
const MEDIA_FIELDS = 'url,type,preview_image_url,media_key';

export const X_INBOX_LIMITATION =
  'Encrypted X Chat conversations cannot be read by apps, so only unencrypted direct messages appear here.';
/**
 * X removed liking (with following and quote posts) from every self-serve API tier on 2026-04-20
 * (https://docs.x.com/changelog, entry of 2026-04-16); an app on pay-per-use gets X's 403
 * `client-forbidden` for `POST /2/users/{id}/likes` (docs/networks.md#x-what-changed-in-2026).
 */
export const X_LIKES_REMOVED =
  'X no longer lets apps like posts (it removed Likes from its API on 20 April 2026); like it on X itself.';
export const X_INBOX_HISTORY =
  'X gives the direct messages of the last 30 days and the 800 newest mentions.';

interface XDmEvent {
  id: string;
  event_type: string;
  text?: string;
  sender_id?: string;
  dm_conversation_id?: string;
  created_at?: string;
  attachments?: { media_keys?: string[] };
  referenced_tweets?: Array<{ id: string }>;
}
export interface XInboxUser {
  id: string;
  name?: string;
  username?: string;
  profile_image_url?: string;
}
interface XMedia {
  media_key: string;
  type?: string;
  url?: string;
  preview_image_url?: string;
}
export interface XInboxTweet {
  id: string;
  text: string;
  author_id?: string;
  created_at?: string;
  conversation_id?: string;
  in_reply_to_user_id?: string;
  referenced_tweets?: Array<{ type: string; id: string }>;
  attachments?: { media_keys?: string[] };
}
interface XIncludes {
  users?: XInboxUser[];
  media?: XMedia[];
  tweets?: XInboxTweet[];
}
interface XPage<T> {
  data?: T[];
  includes?: XIncludes;
  meta?: {
    result_count?: number;
    next_token?: string;
    previous_token?: string;
    newest_id?: string;
  };
}

/** X escapes &, < and > in the text it returns. */
export const xDecode = (text: string) =>
  text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Snowflake ids compared as numbers (they are longer than a JS number holds). */
export const xIdCompare = (a: string, b: string) =>
  a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
const newer = (a: string | undefined, b: string | undefined) =>
  !a ? b : !b ? a : xIdCompare(a, b) >= 0 ? a : b;

export const xPermalink = (id: string) => `https://x.com/i/web/status/${id}`;

export function xPerson(id: string, user?: XInboxUser): InboxPerson {
  return {
    externalId: id,
    name: user?.name ?? null,
    username: user?.username ?? null,
    pictureUrl: user?.profile_image_url ?? null,
    profileUrl: user?.username ? `https://x.com/${user.username}` : null,
  };
}

/** A 1:1 conversation's id: both user ids, smaller first (docs/inbox.md#what-x-gives). */
export function xDmConversationId(a: string, b: string) {
  return xIdCompare(a, b) <= 0 ? `${a}-${b}` : `${b}-${a}`;
}

function attachmentsOf(
  keys: string[] | undefined,
  media: Map<string, XMedia>,
  shared: Array<{ id: string }> | undefined,
): InboxAttachment[] {
  const out: InboxAttachment[] = [];
  for (const key of keys ?? []) {
    const m = media.get(key);
    const type = m?.type === 'video' ? 'video' : m?.type === 'animated_gif' ? 'video' : 'image';
    out.push({
      type,
      url: m?.url ?? null,
      previewUrl: m?.preview_image_url ?? m?.url ?? null,
      title: null,
    });
  }
  for (const t of shared ?? [])
    out.push({ type: 'share', url: xPermalink(t.id), previewUrl: null, title: null });
  return out;
}

/**
 * A mention timeline post (or an XAA post event) as an inbox item: a reply to one of our posts
 * belongs to the comment thread of its conversation's root post; anything else that names the
 * account is a mention, its own conversation.
 */
export function xTweetEvent(
  tweet: XInboxTweet,
  me: string,
  users: Map<string, XInboxUser>,
  tweets: Map<string, XInboxTweet> = new Map(),
  media: Map<string, XMedia> = new Map(),
): InboxMessageEvent {
  const author = tweet.author_id ?? '';
  const parent = tweet.referenced_tweets?.find((r) => r.type === 'replied_to')?.id;
  const root = tweet.conversation_id ?? tweet.id;
  const isComment = !!parent && tweet.in_reply_to_user_id === me;
  const quoted = tweet.referenced_tweets?.filter((r) => r.type === 'quoted');
  const rootTweet = tweets.get(root);
  return {
    type: 'message',
    kind: isComment ? 'comment' : 'mention',
    externalId: tweet.id,
    threadExternalId: isComment ? root : tweet.id,
    direction: author === me ? 'out' : 'in',
    author: xPerson(author, users.get(author)),
    text: xDecode(tweet.text),
    createdAt: tweet.created_at ? new Date(tweet.created_at) : new Date(),
    attachments: attachmentsOf(tweet.attachments?.media_keys, media, quoted),
    parentExternalId: isComment && parent !== root ? parent : null,
    rootPost: isComment
      ? {
          externalId: root,
          permalink: xPermalink(root),
          text: rootTweet ? xDecode(rootTweet.text) : null,
        }
      : { externalId: tweet.id, permalink: xPermalink(tweet.id), text: xDecode(tweet.text) },
  };
}

function dmEvent(
  e: XDmEvent,
  me: string,
  users: Map<string, XInboxUser>,
  media: Map<string, XMedia>,
): InboxMessageEvent | null {
  if (e.event_type !== 'MessageCreate' || !e.sender_id || !e.dm_conversation_id) return null;
  const out = e.sender_id === me;
  const ids = e.dm_conversation_id.split('-');
  const other = out ? (ids.find((id) => id !== me) ?? ids[0]!) : e.sender_id;
  return {
    type: 'message',
    kind: 'dm',
    externalId: e.id,
    threadExternalId: e.dm_conversation_id,
    direction: out ? 'out' : 'in',
    author: xPerson(e.sender_id, users.get(e.sender_id)),
    counterpart: xPerson(other, users.get(other)),
    text: xDecode(e.text ?? ''),
    createdAt: e.created_at ? new Date(e.created_at) : new Date(),
    attachments: attachmentsOf(e.attachments?.media_keys, media, e.referenced_tweets),
  };
}

const mapOf = <T>(items: T[] | undefined, key: (t: T) => string) =>
  new Map((items ?? []).map((i) => [key(i), i]));

interface XInboxCursor {
  /**
   * The `previous_token` of the newest DM page read: asked back, X answers only the events that
   * arrived since, so nothing already read is fetched (and billed) again.
   */
  dmPrevious?: string;
  /** The newest DM event id stored: DM paging from the newest stops there (no `dmPrevious` yet). */
  dmNewest?: string;
  /** An interrupted DM catch-up: where to continue, where to stop, the newest id of the run. */
  dmResume?: { token: string; stopAt: string | null; newest: string };
  /** The mentions timeline's `since_id`. */
  mentionsSince?: string;
  /** An interrupted mentions catch-up (page or budget limit): its token and newest id so far. */
  mentionsResume?: { token: string; newest: string };
}

/**
 * A poll's share of the organization's X budget, counted in post reads: X bills a post read
 * $0.005 and a DM event $0.010 (two reads), per item returned (docs/inbox.md#polling-cost-and-the-rate-limit).
 */
export const X_READS_PER_DM_EVENT = Math.round(X_PRICES.dmEventReadUsd / X_PRICES.postReadUsd);
/** X's smallest mentions page: with fewer reads left, mentions wait for the next budget. */
const X_MENTIONS_MIN_PAGE = 5;

class ReadMeter {
  used = 0;
  constructor(private readonly budget: number) {}
  /** The page size that stays within the budget at `cost` reads per item (0: none). */
  pageSize(cost: number, min: number) {
    const n = Math.min(X_PAGE_SIZE, Math.floor((this.budget - this.used) / cost));
    return n >= min ? n : 0;
  }
  take(items: number, cost: number) {
    this.used += items * cost;
  }
}

const retryAt = (err: PlatformError) =>
  new Date(Date.now() + (err.details.retryAfterSeconds ?? X_INBOX_POLL_MINUTES * 60) * 1000);

/** The inbox half of the X adapter (docs/inbox.md#x). */
export function createXInbox(settings: AdapterSettings<XUrls>): InboxAdapter {
  const http = withRateLimitReset(settings.http);
  const base = settings.urls.apiBase;
  const call = <T>(account: StoredAccount, path: string, init: RequestInit = {}) =>
    requestJson<T>(
      http,
      'X',
      `${base}${path}`,
      {
        ...init,
        headers: {
          authorization: `Bearer ${account.tokens.accessToken}`,
          ...(init.body ? { 'content-type': 'application/json' } : {}),
        },
      },
      describeXApiError,
    );
  const qs = (params: Record<string, string | number | undefined>) =>
    new URLSearchParams(
      Object.entries(params)
        .filter((e): e is [string, string | number] => e[1] !== undefined)
        .map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
  const me = (account: StoredAccount) => encodeURIComponent(account.externalId);
  /** The account's post length (25,000 for Premium, kept in `extra` at connect), else 280. */
  const textLimitOf = (account: StoredAccount) =>
    xTextLimitOf({
      subscription_type: account.extra.subscriptionType as string | undefined,
      verified_type: account.extra.verifiedType as string | undefined,
    }) ?? X_MEDIA_CONSTRAINTS.text.maxLength;
  /** Accounts connected before the inbox existed hold no DM scopes until they reconnect. */
  const mayReadDms = (account: StoredAccount) =>
    !account.tokens.scopes.length || account.tokens.scopes.includes('dm.read');

  const dmQuery = (token?: string, size: number = X_PAGE_SIZE) =>
    qs({
      'dm_event.fields': X_DM_EVENT_FIELDS.join(','),
      event_types: 'MessageCreate',
      expansions: 'sender_id,participant_ids,attachments.media_keys,referenced_tweets.id',
      'user.fields': USER_FIELDS,
      'media.fields': MEDIA_FIELDS,
      max_results: size,
      pagination_token: token,
    });

  /**
   * Mentions newer than `since_id`, newest first. A catch-up cut short (X_MENTION_PAGES_PER_POLL
   * pages, or the budget) keeps its page token and continues at the next poll, so the mentions
   * between the old `since_id` and the last page read are not skipped.
   */
  async function pollMentions(account: StoredAccount, cursor: XInboxCursor, meter: ReadMeter) {
    const events: InboxMessageEvent[] = [];
    const since = cursor.mentionsSince;
    let newest = cursor.mentionsResume?.newest;
    let token = cursor.mentionsResume?.token;
    for (let page = 0; page < X_MENTION_PAGES_PER_POLL; page++) {
      const size = meter.pageSize(1, X_MENTIONS_MIN_PAGE);
      if (!size) break;
      const answer = await call<XPage<XInboxTweet>>(
        account,
        `/2/users/${me(account)}/mentions?${qs({
          since_id: since,
          max_results: size,
          'tweet.fields': X_MENTION_TWEET_FIELDS.join(','),
          expansions: 'author_id,referenced_tweets.id,attachments.media_keys',
          'user.fields': USER_FIELDS,
          'media.fields': MEDIA_FIELDS,
          pagination_token: token,
        })}`,
      );
      const users = mapOf(answer.includes?.users, (u) => u.id);
      const tweets = mapOf(answer.includes?.tweets, (t) => t.id);
      const media = mapOf(answer.includes?.media, (m) => m.media_key);
      meter.take(answer.data?.length ?? 0, 1);
      for (const t of answer.data ?? []) {
        events.push(xTweetEvent(t, account.externalId, users, tweets, media));
        newest = newer(newest, t.id);
      }
      token = answer.meta?.next_token;
      if (!token) return { events, cursor: { mentionsSince: newer(since, newest) } };
    }
    return {
      events,
      cursor: {
        mentionsSince: since,
        ...(token ? { mentionsResume: { token, newest: newest ?? since ?? '0' } } : {}),
      },
    };
  }

  /**
   * DM events newer than the newest page read before, from its `previous_token`. A page of events
   * that comes without one leaves nothing to ask from next time: the cursor then keeps the newest
   * event read instead, and the next poll pages down to it (never reading these again).
   */
  async function pollNewDms(account: StoredAccount, cursor: XInboxCursor, meter: ReadMeter) {
    const events: InboxMessageEvent[] = [];
    let token = cursor.dmPrevious!;
    let newest = cursor.dmNewest;
    let tokenLost = false;
    for (let page = 0; page < X_DM_PAGES_PER_POLL; page++) {
      const size = meter.pageSize(X_READS_PER_DM_EVENT, 1);
      if (!size) break;
      const answer = await call<XPage<XDmEvent>>(account, `/2/dm_events?${dmQuery(token, size)}`);
      const users = mapOf(answer.includes?.users, (u) => u.id);
      const media = mapOf(answer.includes?.media, (m) => m.media_key);
      meter.take(answer.data?.length ?? 0, X_READS_PER_DM_EVENT);
      for (const e of answer.data ?? []) {
        newest = newer(newest, e.id);
        const event = dmEvent(e, account.externalId, users, media);
        if (event) events.push(event);
      }
      // An empty page keeps the token it was asked with; a full one may have newer events above.
      if (answer.meta?.previous_token) token = answer.meta.previous_token;
      else if (answer.data?.length) {
        tokenLost = true;
        break;
      }
      if ((answer.data?.length ?? 0) < size) break;
    }
    return {
      events,
      cursor: tokenLost
        ? { dmPrevious: undefined, dmNewest: newest }
        : { dmPrevious: token, dmNewest: newest },
    };
  }

  /**
   * DM events newest first, paged until the newest one already stored. A catch-up longer than
   * X_DM_PAGES_PER_POLL pages continues at the next poll from where it stopped.
   */
  async function pollDms(account: StoredAccount, cursor: XInboxCursor, meter: ReadMeter) {
    const resume = cursor.dmResume;
    if (!resume && cursor.dmPrevious) return pollNewDms(account, cursor, meter);
    const events: InboxMessageEvent[] = [];
    const stopAt = resume ? resume.stopAt : (cursor.dmNewest ?? null);
    let newest = resume?.newest;
    let token = resume?.token;
    // The newest page's previous_token (a fresh run starts there): later polls ask from it.
    let previous = cursor.dmPrevious;
    for (let page = 0; page < X_DM_PAGES_PER_POLL; page++) {
      const size = meter.pageSize(X_READS_PER_DM_EVENT, 1);
      if (!size) break;
      const answer = await call<XPage<XDmEvent>>(account, `/2/dm_events?${dmQuery(token, size)}`);
      const users = mapOf(answer.includes?.users, (u) => u.id);
      const media = mapOf(answer.includes?.media, (m) => m.media_key);
      meter.take(answer.data?.length ?? 0, X_READS_PER_DM_EVENT);
      if (!resume && page === 0 && answer.meta?.previous_token)
        previous = answer.meta.previous_token;
      let reached = false;
      for (const e of answer.data ?? []) {
        if (stopAt && xIdCompare(e.id, stopAt) <= 0) {
          reached = true;
          break;
        }
        newest = newer(newest, e.id);
        const event = dmEvent(e, account.externalId, users, media);
        if (event) events.push(event);
      }
      token = answer.meta?.next_token;
      if (reached || !token)
        return {
          events,
          cursor: { dmNewest: newer(newest, stopAt ?? undefined), dmPrevious: previous },
        };
    }
    // Cut short (pages or budget): the catch-up continues from its token at the next poll.
    if (!token) return { events, cursor: { dmNewest: cursor.dmNewest, dmPrevious: previous } };
    return {
      events,
      cursor: {
        dmNewest: cursor.dmNewest,
        dmPrevious: previous,
        dmResume: { token, stopAt, newest: newest ?? stopAt ?? '0' },
      },
    };
  }

  async function sentDm(
    account: StoredAccount,
    thread: InboxThreadRef,
    text: string,
    since: Date,
  ): Promise<InboxSendResult | null> {
    const answer = await call<XPage<XDmEvent>>(
      account,
      `/2/dm_conversations/with/${encodeURIComponent(thread.participantExternalId)}/dm_events?${dmQuery()}`,
    );
    // A minute of clock skew between Herald and X.
    const after = since.getTime() - 60_000;
    const hit = (answer.data ?? []).find(
      (e) =>
        e.sender_id === account.externalId &&
        xDecode(e.text ?? '') === text &&
        (!e.created_at || Date.parse(e.created_at) >= after),
    );
    return hit ? { externalId: hit.id, createdAt: new Date(hit.created_at ?? Date.now()) } : null;
  }

  async function sentReply(
    account: StoredAccount,
    thread: InboxThreadRef,
    text: string,
    since: Date,
  ): Promise<InboxSendResult | null> {
    const answer = await call<XPage<XInboxTweet>>(
      account,
      `/2/users/${me(account)}/tweets?${qs({
        max_results: X_PAGE_SIZE,
        'tweet.fields': 'created_at,conversation_id,referenced_tweets',
        start_time: new Date(since.getTime() - 60_000).toISOString(),
      })}`,
    );
    // X refuses the same text twice within a day, so our reply with this text after `since` is it.
    const hit = (answer.data ?? []).find(
      (t) =>
        xDecode(t.text) === text && !!t.referenced_tweets?.some((r) => r.type === 'replied_to'),
    );
    return hit ? { externalId: hit.id, createdAt: new Date(hit.created_at ?? Date.now()) } : null;
  }

  return {
    billedReads: true,

    capabilities(account): InboxCapabilities {
      return {
        dm: true,
        comments: true,
        mentions: true,
        privateReply: false,
        // X removed Likes from its self-serve API tiers on 2026-04-20 (X_LIKES_REMOVED).
        like: false,
        likeUnavailable: X_LIKES_REMOVED,
        hide: true,
        // X deletes only the account's own posts; others' replies can be hidden, not deleted.
        deleteComment: false,
        // The v2 API Herald uses has no call to block a user on the account's behalf.
        block: false,
        dmWindowHours: null,
        humanAgentWindowHours: null,
        replyMaxLength: textLimitOf(account),
        dmMaxLength: X_DM_MAX_LENGTH,
        limitation: X_INBOX_LIMITATION,
        historyNote: X_INBOX_HISTORY,
        pollIntervalMinutes: X_INBOX_POLL_MINUTES,
      };
    },

    async poll(account, cursor: InboxCursor | null, options = {}): Promise<InboxPollResult> {
      const state = (cursor ?? {}) as XInboxCursor;
      const meter = new ReadMeter(options.readBudget ?? Number.POSITIVE_INFINITY);
      const events: InboxMessageEvent[] = [];
      const next: XInboxCursor = { ...state };
      try {
        const mentions = await pollMentions(account, state, meter);
        events.push(...mentions.events);
        delete next.mentionsResume;
        Object.assign(next, mentions.cursor);
        if (mayReadDms(account)) {
          const dms = await pollDms(account, state, meter);
          events.push(...dms.events);
          delete next.dmResume;
          Object.assign(next, dms.cursor);
        }
      } catch (err) {
        // What was read stays read; the cursor moves only past it, and X says when to come back.
        if (err instanceof PlatformError && err.kind === 'rate_limited')
          return {
            events,
            cursor: next as InboxCursor,
            retryAfter: retryAt(err),
            billedReads: meter.used,
          };
        throw err;
      }
      return { events, cursor: next as InboxCursor, billedReads: meter.used };
    },

    async sendDm(account, thread, text) {
      if (text.length > X_DM_MAX_LENGTH)
        throw new PlatformError(
          'bad_request',
          `X takes direct messages of up to ${X_DM_MAX_LENGTH.toLocaleString('en')} characters; this one has ${text.length.toLocaleString('en')}.`,
        );
      const answer = await visibleCall('the message', X_FINALIZE_TIMEOUT_MS, (signal) =>
        call<{ data?: { dm_conversation_id?: string; dm_event_id?: string } }>(
          account,
          `/2/dm_conversations/with/${encodeURIComponent(thread.participantExternalId)}/messages`,
          { method: 'POST', body: JSON.stringify({ text }), signal },
        ),
      );
      const id = answer?.data?.dm_event_id;
      if (!id)
        throw new PlatformError('unknown_outcome', 'X accepted the message without giving its id.');
      return { externalId: id, createdAt: new Date() };
    },

    async replyToComment(account, thread, commentExternalId, text) {
      const limit = textLimitOf(account);
      const length = countText(text, 'x-weighted');
      if (length > limit)
        throw new PlatformError(
          'bad_request',
          `X takes replies of up to ${limit.toLocaleString('en')} characters; this one counts ${length.toLocaleString('en')}.`,
        );
      const to = commentExternalId ?? thread.rootPostExternalId ?? thread.threadExternalId;
      const answer = await visibleCall('the reply', X_FINALIZE_TIMEOUT_MS, (signal) =>
        call<{ data?: { id?: string } }>(account, '/2/tweets', {
          method: 'POST',
          body: JSON.stringify({ text, reply: { in_reply_to_tweet_id: to } }),
          signal,
        }),
      ).catch((err: unknown) => {
        throw notSummonedExplained(err);
      });
      if (!answer?.data?.id)
        throw new PlatformError('unknown_outcome', 'X accepted the reply without giving its id.');
      return { externalId: answer.data.id, createdAt: new Date() };
    },

    findSent: (account, thread, text, since) =>
      thread.kind === 'dm'
        ? sentDm(account, thread, text, since)
        : sentReply(account, thread, text, since),

    async hide(account, externalId, hidden) {
      await call(account, `/2/tweets/${encodeURIComponent(externalId)}/hidden`, {
        method: 'PUT',
        body: JSON.stringify({ hidden }),
      });
    },
  };
}
