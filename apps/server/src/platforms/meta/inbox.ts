import type { InboxAttachment, InboxPerson } from '@herald/contract';
import { PlatformError } from '../errors.js';
import type {
  InboxCursor,
  InboxMessageEvent,
  InboxSendResult,
  InboxThreadRef,
} from '../inbox-types.js';
import { form, requestJson } from '../oauth.js';
import type { AdapterSettings, PlatformHttp } from '../types.js';
import type { GraphList, MetaNetwork } from './api.js';
import { describeMetaError, type GraphErrorBody } from './errors.js';
import { graphTimeMs, withDeadline } from './graph-client.js';
import { META_TIMING } from './limits.js';
import type { MetaUrls } from './urls.js';

/**
 * What Facebook Pages (Messenger) and Instagram share in the inbox (docs/inbox.md#facebook-and-instagram):
 * the Conversations API, the Send API with its 24 h window, private replies, webhook
 * subscriptions, and the error sentences of the messaging calls.
 */

/** Adapter settings of the inbox; `humanAgent` only when Meta granted the app the Human Agent feature. */
export interface MetaInboxOptions {
  /**
   * The app has Meta's Human Agent permission (App Review): replies up to 7 days after the
   * customer's last message, tagged `HUMAN_AGENT`. Default false: 24 hours.
   */
  humanAgent?: boolean;
  /** How long one Graph call may take (tests shorten it). */
  requestTimeoutMs?: number;
}

export const MESSAGING_WINDOW_HOURS = 24;
export const HUMAN_AGENT_WINDOW_HOURS = 168;
/** Polls of one account at most every 5 minutes (Conversations API: 2 calls/s per Page). */
export const META_INBOX_POLL_MINUTES = 5;
/** Polls look this far behind the last one: webhooks and polls overlap, ids dedupe. */
export const POLL_OVERLAP_MS = 5 * 60 * 1000;
/** Conversations and posts looked at per poll; messages read per conversation on the first import. */
const CONVERSATIONS_PER_POLL = 50;
const FIRST_IMPORT_MESSAGES = 100;
/** Graph subcode of "This message is sent outside of allowed window". */
export const WINDOW_CLOSED_SUBCODE = 2534022;

type Params = Record<string, string | undefined>;
export type MessagingPlatform = 'messenger' | 'instagram';

/** The ids and token one account's inbox calls use. */
export interface MetaInboxIds {
  /** The Page the calls go through (Messenger's Page; the Instagram account's linked Page). */
  pageId: string;
  /** The account's own id in messages and comments: the Page id, or the Instagram user id. */
  accountId: string;
  /** A Page token (messaging needs one). */
  token: string;
}

export interface GraphMessageNode {
  id: string;
  created_time?: string;
  from?: { id?: string; name?: string; username?: string };
  to?: { data?: Array<{ id?: string; name?: string; username?: string }> };
  message?: string;
  attachments?: {
    data?: Array<{
      id?: string;
      name?: string;
      mime_type?: string;
      file_url?: string;
      image_data?: { url?: string; preview_url?: string };
      video_data?: { url?: string; preview_url?: string };
    }>;
  };
  sticker?: string;
}

/** The sentences for the messaging errors people meet (window closed, one private reply…). */
function describeMessagingError(network: MetaNetwork, humanAgent: boolean) {
  return (body: unknown, headers?: Headers) => {
    const error = (body as GraphErrorBody | null)?.error;
    const code = error?.code;
    const subcode = error?.error_subcode;
    if (code === 10 && subcode === WINDOW_CLOSED_SUBCODE) {
      return {
        kind: 'bad_request' as const,
        code: WINDOW_CLOSED_SUBCODE,
        sentence: humanAgent
          ? `${network} allows a reply only within 7 days of the customer's last message, and this conversation is older: the reply was not sent. It can continue when the customer writes again.`
          : `${network} allows a reply only within 24 hours of the customer's last message, and that time has passed: the reply was not sent. It can continue when the customer writes again.`,
      };
    }
    if (code === 10900) {
      return {
        kind: 'bad_request' as const,
        code,
        sentence: `${network} allows only one private reply to a comment, and this comment already has one.`,
      };
    }
    if (code === 10903) {
      return {
        kind: 'bad_request' as const,
        code,
        sentence: `${network} allows a private reply only within 7 days of the comment, and this comment is older.`,
      };
    }
    if (code === 551 || subcode === 2018001 || subcode === 1545041) {
      return {
        kind: 'bad_request' as const,
        code: subcode ?? code,
        sentence: `${network} says this person cannot receive messages from the account right now (they may have blocked it or left the conversation).`,
      };
    }
    return describeMetaError(body, headers);
  };
}

/** The Graph calls of the inbox: reads, form posts, and sends whose outcome may be unknown. */
export function createInboxGraph(
  settings: AdapterSettings<MetaUrls>,
  network: MetaNetwork,
  options: MetaInboxOptions = {},
) {
  const { urls, http } = settings;
  const timeoutMs = options.requestTimeoutMs ?? META_TIMING.requestTimeoutMs;
  const describe = describeMessagingError(network, options.humanAgent ?? false);
  const timed: PlatformHttp = (u, i) => withDeadline(http, u, i ?? {}, timeoutMs);

  async function call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    token: string,
    params: Params,
  ): Promise<T> {
    const url = new URL(`${urls.graphBase}/${urls.graphVersion}/${path}`);
    if (method !== 'POST') {
      for (const [key, value] of Object.entries(params))
        if (value !== undefined) url.searchParams.set(key, value);
    }
    const init: RequestInit = {
      method,
      headers: { authorization: `OAuth ${token}` },
      ...(method === 'POST' ? { body: form(params) } : {}),
    };
    try {
      return await requestJson<T>(timed, network, url.toString(), init, describe);
    } catch (err) {
      if (err instanceof PlatformError) throw err;
      throw new PlatformError(
        'transient',
        `${network} did not answer in time. Please try again in a moment.`,
      );
    }
  }

  return {
    get: <T>(path: string, token: string, params: Params = {}) =>
      call<T>('GET', path, token, params),
    post: <T>(path: string, token: string, params: Params) => call<T>('POST', path, token, params),
    delete: <T>(path: string, token: string, params: Params = {}) =>
      call<T>('DELETE', path, token, params),
    /**
     * A call that makes something visible (a message, a reply): never repeated here. No answer
     * or a 5xx leaves it unknown whether it went out (`unknown_outcome`); `findSent` tells.
     */
    async send<T>(path: string, token: string, params: Params): Promise<T> {
      try {
        return await call<T>('POST', path, token, params);
      } catch (err) {
        if (!(err instanceof PlatformError) || err.kind !== 'transient') throw err;
        const status = err.details.status;
        if (status !== undefined && status < 500) throw err;
        throw new PlatformError(
          'unknown_outcome',
          `${network} did not confirm whether the reply went out. Herald checks before sending it again.`,
          err.details,
        );
      }
    },
  };
}

export type InboxGraph = ReturnType<typeof createInboxGraph>;

/** Follows a Graph list's `after` cursor while `more(items)` says so. */
export async function walk<T>(
  graph: InboxGraph,
  path: string,
  token: string,
  params: Params,
  more: (page: T[]) => boolean,
  maxPages = 10,
): Promise<T[]> {
  return (await walkAll(graph, path, token, params, more, maxPages)).items;
}

/**
 * `walk`, also saying whether it read everything asked for: `complete` is false when it stopped
 * at `maxPages` with more pages left — then a lookup that found nothing cannot say “not there”.
 */
export async function walkAll<T>(
  graph: InboxGraph,
  path: string,
  token: string,
  params: Params,
  more: (page: T[]) => boolean,
  maxPages = 10,
): Promise<{ items: T[]; complete: boolean }> {
  const items: T[] = [];
  let after: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const body = await graph.get<GraphList<T>>(path, token, { ...params, after });
    const page = body.data ?? [];
    items.push(...page);
    after = body.paging?.next ? body.paging.cursors?.after : undefined;
    if (!after || page.length === 0 || !more(page)) return { items, complete: true };
  }
  return { items, complete: false };
}

/** A lookup that read only part of what it needed: the reply may be there, unseen. */
export const lookupInconclusive = (network: string) =>
  new PlatformError(
    'transient',
    `${network} shows only part of this conversation, so Herald cannot tell whether the reply went out.`,
  );

/** Instagram lets apps read only the 20 newest messages of a conversation. */
export const INSTAGRAM_READABLE_MESSAGES = 20;

export const personOf = (
  network: MetaNetwork,
  node: { id?: string; name?: string; username?: string } | undefined,
): InboxPerson => {
  const username = node?.username ?? null;
  return {
    externalId: node?.id ?? '',
    // Unnamed (a webhook carries ids only): the inbox names the person once a poll reads them.
    name: node?.name ?? username,
    username,
    pictureUrl: null,
    profileUrl:
      network === 'Instagram' && username
        ? `https://www.instagram.com/${encodeURIComponent(username)}/`
        : null,
  };
};

function attachmentsOf(node: GraphMessageNode): InboxAttachment[] {
  const out: InboxAttachment[] = [];
  for (const a of node.attachments?.data ?? []) {
    if (a.image_data)
      out.push({
        type: 'image',
        url: a.image_data.url ?? null,
        previewUrl: a.image_data.preview_url ?? a.image_data.url ?? null,
        title: a.name ?? null,
      });
    else if (a.video_data)
      out.push({
        type: 'video',
        url: a.video_data.url ?? null,
        previewUrl: a.video_data.preview_url ?? null,
        title: a.name ?? null,
      });
    else if (a.file_url)
      out.push({ type: 'file', url: a.file_url, previewUrl: null, title: a.name ?? null });
  }
  if (node.sticker)
    out.push({ type: 'sticker', url: node.sticker, previewUrl: node.sticker, title: null });
  return out;
}

/** A Conversations API message as an inbox event; the thread is the customer's id. */
export function dmEventOf(
  network: MetaNetwork,
  node: GraphMessageNode,
  accountId: string,
): InboxMessageEvent | null {
  const fromId = node.from?.id;
  if (!fromId) return null;
  const out = fromId === accountId;
  const other = out ? node.to?.data?.find((p) => p.id !== accountId) : node.from;
  if (!other?.id) return null;
  return {
    type: 'message',
    kind: 'dm',
    externalId: node.id,
    threadExternalId: other.id,
    direction: out ? 'out' : 'in',
    author: personOf(network, node.from),
    counterpart: personOf(network, other),
    text: node.message ?? '',
    createdAt: new Date(graphTimeMs(node.created_time) ?? 0),
    attachments: attachmentsOf(node),
  };
}

/** Who wrote: Messenger gives names, Instagram usernames. */
const messageFields = (platform: MessagingPlatform) => {
  const who = platform === 'instagram' ? '{id,username}' : '{id,name}';
  return `id,created_time,from${who},to${who},message,attachments,sticker`;
};

/** Reads cursor values written by this module. */
export const cursorMs = (cursor: InboxCursor | null, key: string): number | null => {
  const value = cursor?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};

/**
 * The DMs that changed since `since` (ms; null on the first import): conversations newest
 * first, then each one's message ids, then each new message read on its own — Instagram lets
 * only the 20 newest messages of a conversation be read, older ones answer as deleted.
 */
export async function pollDirectMessages(
  graph: InboxGraph,
  network: MetaNetwork,
  platform: MessagingPlatform,
  ids: MetaInboxIds,
  since: number | null,
  readableLimit: number,
) {
  const threshold = since === null ? null : since - POLL_OVERLAP_MS;
  const newer = (time: string | undefined) =>
    threshold === null || (graphTimeMs(time) ?? 0) > threshold;
  const conversations = await walk<{ id: string; updated_time?: string }>(
    graph,
    `${ids.pageId}/conversations`,
    ids.token,
    { platform, fields: 'id,updated_time', limit: '25' },
    (page) => newer(page[page.length - 1]?.updated_time),
    Math.ceil(CONVERSATIONS_PER_POLL / 25),
  );
  const events: InboxMessageEvent[] = [];
  let newest = since ?? 0;
  for (const conversation of conversations.filter((c) => newer(c.updated_time))) {
    newest = Math.max(newest, graphTimeMs(conversation.updated_time) ?? 0);
    const listed = await walk<{ id: string; created_time?: string }>(
      graph,
      `${conversation.id}/messages`,
      ids.token,
      { fields: 'id,created_time', limit: '100' },
      (page) => newer(page[page.length - 1]?.created_time),
      5,
    );
    const wanted = listed
      .filter((m) => newer(m.created_time))
      .slice(0, since === null ? Math.min(readableLimit, FIRST_IMPORT_MESSAGES) : readableLimit);
    for (const { id } of wanted) {
      let node: GraphMessageNode;
      try {
        node = await graph.get<GraphMessageNode>(id, ids.token, {
          fields: messageFields(platform),
        });
      } catch (err) {
        // Beyond Instagram's 20 newest, or unsent: nothing to import.
        if (err instanceof PlatformError && err.kind === 'bad_request') continue;
        throw err;
      }
      const event = dmEventOf(network, node, ids.accountId);
      if (event) events.push(event);
    }
  }
  return { events, newest: newest || since };
}

/** The customer's conversation (`user_id`), and our messages in it since `since`. */
export async function findSentDm(
  graph: InboxGraph,
  platform: MessagingPlatform,
  ids: MetaInboxIds,
  thread: InboxThreadRef,
  text: string,
  since: Date,
): Promise<InboxSendResult | null> {
  const { data } = await graph.get<GraphList<{ id: string }>>(
    `${ids.pageId}/conversations`,
    ids.token,
    { platform, user_id: thread.participantExternalId, fields: 'id' },
  );
  const conversation = data?.[0];
  if (!conversation) return null;
  const threshold = since.getTime() - 60_000;
  const { items: messages, complete } = await walkAll<GraphMessageNode>(
    graph,
    `${conversation.id}/messages`,
    ids.token,
    {
      fields: `id,created_time,from${platform === 'instagram' ? '{id,username}' : '{id,name}'},message`,
      limit: '25',
    },
    (page) => (graphTimeMs(page[page.length - 1]?.created_time) ?? 0) >= threshold,
    4,
  );
  const match = messages.find(
    (m) =>
      m.from?.id === ids.accountId &&
      (m.message ?? '').trim() === text.trim() &&
      (graphTimeMs(m.created_time) ?? 0) >= threshold,
  );
  if (match)
    return {
      externalId: match.id,
      createdAt: new Date(graphTimeMs(match.created_time) ?? Date.now()),
    };
  // “Not there” only when everything since the attempt was read: not when the pages ran out
  // first, nor when Instagram's 20 readable messages are all newer than the attempt.
  const oldest = Math.min(...messages.map((m) => graphTimeMs(m.created_time) ?? 0));
  const cutOff =
    platform === 'instagram' &&
    messages.length >= INSTAGRAM_READABLE_MESSAGES &&
    oldest >= threshold;
  if (!complete || cutOff)
    throw lookupInconclusive(platform === 'instagram' ? 'Instagram' : 'Facebook');
  return null;
}

/**
 * The customer of a DM conversation, named: `GET /{page}/conversations?user_id=…&fields=participants`
 * (Messenger names people, Instagram gives usernames). One call per conversation; null when the
 * network knows no conversation with them or does not name them.
 */
export async function dmParticipant(
  graph: InboxGraph,
  network: MetaNetwork,
  platform: MessagingPlatform,
  ids: MetaInboxIds,
  personExternalId: string,
): Promise<InboxPerson | null> {
  const { data } = await graph.get<
    GraphList<{ id: string; participants?: { data?: Array<GraphMessageNode['from']> } }>
  >(`${ids.pageId}/conversations`, ids.token, {
    platform,
    user_id: personExternalId,
    fields: 'participants',
  });
  const found = (data?.[0]?.participants?.data ?? []).find((p) => p?.id === personExternalId);
  if (!found?.name && !found?.username) return null;
  return personOf(network, found);
}

/** Refuses a reply over the network's limit before calling it (Instagram counts bytes). */
export function checkReplyLength(network: MetaNetwork, text: string, max: number, bytes = false) {
  if (!text.trim()) throw new PlatformError('bad_request', 'Reply cannot be empty.');
  const length = bytes ? Buffer.byteLength(text, 'utf8') : [...text].length;
  if (length > max) {
    throw new PlatformError(
      'bad_request',
      `${network} takes at most ${max} ${bytes ? 'bytes (about as many letters; emoji and accents count more)' : 'characters'} in a reply; this one has ${length}. Shorten it and send again.`,
    );
  }
}

/**
 * The Send API: a reply inside the 24 h window (`RESPONSE`); when the window has closed and
 * the app has the Human Agent feature, the same reply tagged `HUMAN_AGENT` (7 days). A refusal
 * sends nothing, so trying once more with the tag cannot send twice.
 */
export async function sendDirectMessage(
  graph: InboxGraph,
  ids: MetaInboxIds,
  recipientId: string,
  text: string,
  humanAgent: boolean,
): Promise<InboxSendResult> {
  const base = {
    recipient: JSON.stringify({ id: recipientId }),
    message: JSON.stringify({ text }),
  };
  let answer: { message_id?: string };
  try {
    answer = await graph.send(`${ids.pageId}/messages`, ids.token, {
      ...base,
      messaging_type: 'RESPONSE',
    });
  } catch (err) {
    const closed =
      err instanceof PlatformError && err.details.code === WINDOW_CLOSED_SUBCODE && humanAgent;
    if (!closed) throw err;
    answer = await graph.send(`${ids.pageId}/messages`, ids.token, {
      ...base,
      messaging_type: 'MESSAGE_TAG',
      tag: 'HUMAN_AGENT',
    });
  }
  return sentResult(answer.message_id);
}

/** A private reply: one Messenger/Instagram message to a comment's author, within 7 days. */
export async function sendPrivateReply(
  graph: InboxGraph,
  ids: MetaInboxIds,
  commentId: string,
  text: string,
) {
  const answer = await graph.send<{ message_id?: string }>(`${ids.pageId}/messages`, ids.token, {
    recipient: JSON.stringify({ comment_id: commentId }),
    message: JSON.stringify({ text }),
  });
  return sentResult(answer.message_id);
}

export function sentResult(id: string | undefined): InboxSendResult {
  if (!id) {
    throw new PlatformError(
      'unknown_outcome',
      'The network answered without the id of the reply. Herald checks before sending it again.',
    );
  }
  return { externalId: id, createdAt: new Date() };
}

/** Whether this app receives the Page's webhooks with every field in `fields`. */
export async function isSubscribed(
  graph: InboxGraph,
  ids: MetaInboxIds,
  appId: string,
  fields: readonly string[],
) {
  const { data } = await graph.get<GraphList<{ id?: string; subscribed_fields?: string[] }>>(
    `${ids.pageId}/subscribed_apps`,
    ids.token,
    { fields: 'id,subscribed_fields' },
  );
  const app = (data ?? []).find((a) => a.id === appId);
  return !!app && fields.every((f) => (app.subscribed_fields ?? []).includes(f));
}

export async function subscribeApp(
  graph: InboxGraph,
  ids: MetaInboxIds,
  fields: readonly string[],
) {
  await graph.post<{ success?: boolean }>(`${ids.pageId}/subscribed_apps`, ids.token, {
    subscribed_fields: fields.join(','),
  });
}
