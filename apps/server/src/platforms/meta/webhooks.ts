import { createHmac, timingSafeEqual } from 'node:crypto';
import type { InboxAttachment, PlatformName } from '@herald/contract';
import { isObj } from '../errors.js';
import type {
  AddressedInboxEvent,
  InboxMessageEvent,
  WebhookHeaders,
  WebhookReceiver,
} from '../inbox-types.js';
import { answerHubChallenge } from '../webhook-handshake.js';
import { personOf } from './inbox.js';

/**
 * Meta's webhooks for Facebook Pages and Instagram (docs/inbox.md#facebook-and-instagram), one
 * endpoint `{api}/webhooks/meta` for the app's `page` and `instagram` objects:
 * - the GET handshake: `hub.mode=subscribe`, `hub.verify_token` equal to Herald's token →
 *   `hub.challenge` (a bounded token of safe characters) as plain text;
 * - `X-Hub-Signature-256: sha256=<hex>`, HMAC-SHA256 of the raw body with the app secret,
 *   compared in constant time before anything is parsed (Meta escapes non-ASCII text, so only the
 *   bytes as received verify);
 * - bodies: only `{object: "page"|"instagram"}` (a Threads or X body signed with a shared secret
 *   is refused before it is stored); `entry[]` (batched) of `messaging[]` (messages, echoes,
 *   edits, unsends) and `changes[]` (`feed` comments on a Page; `comments` and `mentions` on
 *   Instagram). Reads, deliveries, reactions and other verbs carry no message and are skipped.
 */

const header = (headers: WebhookHeaders, name: string) => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

function verifySignature(rawBody: Buffer, headers: WebhookHeaders, appSecret: string) {
  const given = header(headers, 'x-hub-signature-256');
  if (!appSecret || !given?.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const hex = given.slice('sha256='.length).trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}

type Json = Record<string, unknown>;
const asStr = (v: unknown) =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObj) : []);

const ATTACHMENT_TYPES: Record<string, InboxAttachment['type']> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  file: 'file',
  sticker: 'sticker',
  share: 'share',
  ig_reel: 'share',
  reel: 'share',
  ig_post: 'share',
  story_mention: 'share',
  template: 'share',
  fallback: 'share',
};

function attachmentsOf(message: Json): InboxAttachment[] {
  const out: InboxAttachment[] = [];
  for (const a of list(message.attachments)) {
    const payload = isObj(a.payload) ? a.payload : {};
    const type =
      payload.sticker_id !== undefined
        ? 'sticker'
        : (ATTACHMENT_TYPES[asStr(a.type) ?? ''] ?? 'file');
    const url = asStr(payload.url) ?? null;
    out.push({
      type,
      url,
      previewUrl: type === 'image' || type === 'sticker' ? url : null,
      title: asStr(payload.title) ?? asStr(a.title) ?? null,
    });
  }
  return out;
}

/** A `messaging[]` item with a `message`: a DM, an echo of our own, or an unsend. */
function messagingEvent(
  platform: PlatformName,
  accountId: string,
  item: Json,
): InboxMessageEvent | null {
  // An edit (`message_edits` field) carries the new text under `message_edit`, same `mid`.
  const edit = isObj(item.message_edit) ? item.message_edit : null;
  const message = isObj(item.message) ? item.message : edit;
  const senderId = isObj(item.sender) ? asStr(item.sender.id) : undefined;
  const recipientId = isObj(item.recipient) ? asStr(item.recipient.id) : undefined;
  const mid = message ? asStr(message.mid) : undefined;
  if (!message || !mid || !senderId || !recipientId) return null;
  const echo = message.is_echo === true || senderId === accountId;
  const customerId = echo ? recipientId : senderId;
  const network = platform === 'Instagram' ? 'Instagram' : 'Facebook';
  const customer = personOf(network, { id: customerId });
  const own = personOf(network, { id: accountId });
  const timestamp = typeof item.timestamp === 'number' ? item.timestamp : Date.now();
  return {
    type: 'message',
    kind: 'dm',
    externalId: mid,
    threadExternalId: customerId,
    direction: echo ? 'out' : 'in',
    author: echo ? own : customer,
    counterpart: customer,
    text: asStr(message.text) ?? '',
    createdAt: new Date(timestamp),
    attachments: attachmentsOf(message),
    deleted: message.is_deleted === true,
    ...(edit ? { edited: true } : {}),
  };
}

/** A Page `feed` change about a comment (add, edited, remove, hide, unhide). */
function feedEvent(accountId: string, value: Json): InboxMessageEvent | null {
  if (value.item !== 'comment') return null;
  const verb = asStr(value.verb);
  const id = asStr(value.comment_id);
  const postId = asStr(value.post_id);
  if (!id || !postId || !verb) return null;
  const from = isObj(value.from) ? value.from : {};
  const fromId = asStr(from.id) ?? '';
  const parent = asStr(value.parent_id);
  const created = typeof value.created_time === 'number' ? value.created_time * 1000 : Date.now();
  return {
    type: 'message',
    kind: 'comment',
    externalId: id,
    threadExternalId: postId,
    direction: fromId !== '' && fromId === accountId ? 'out' : 'in',
    author: personOf('Facebook', { id: fromId, name: asStr(from.name) }),
    text: asStr(value.message) ?? '',
    createdAt: new Date(created),
    attachments: asStr(value.photo)
      ? [{ type: 'image', url: asStr(value.photo)!, previewUrl: asStr(value.photo)!, title: null }]
      : [],
    parentExternalId: parent && parent !== postId ? parent : null,
    rootPost: { externalId: postId, permalink: asStr(value.permalink_url) ?? null, text: null },
    ...(verb === 'remove' ? { deleted: true } : {}),
    ...(verb === 'hide' ? { hidden: true } : verb === 'unhide' ? { hidden: false } : {}),
    ...(verb === 'edited' ? { edited: true } : {}),
  };
}

/** An Instagram `comments` change: a comment or reply on the account's media. */
function instagramCommentEvent(accountId: string, value: Json): InboxMessageEvent | null {
  const id = asStr(value.id);
  const media = isObj(value.media) ? value.media : {};
  const mediaId = asStr(media.id);
  if (!id || !mediaId) return null;
  const from = isObj(value.from) ? value.from : {};
  const fromId = asStr(from.id) ?? '';
  return {
    type: 'message',
    kind: 'comment',
    externalId: id,
    threadExternalId: mediaId,
    direction: fromId !== '' && fromId === accountId ? 'out' : 'in',
    author: personOf('Instagram', { id: fromId, username: asStr(from.username) }),
    text: asStr(value.text) ?? '',
    createdAt: new Date(),
    attachments: [],
    parentExternalId: asStr(value.parent_id) ?? null,
    rootPost: { externalId: mediaId, permalink: null, text: null },
  };
}

/**
 * An Instagram `mentions` change: only ids (`media_id`, and `comment_id` for a mention in a
 * comment); the caption arrives with the next poll of `/{ig-user}/tags`, which updates it.
 */
function mentionEvent(value: Json, time: number): InboxMessageEvent | null {
  const mediaId = asStr(value.media_id);
  if (!mediaId) return null;
  const commentId = asStr(value.comment_id);
  const id = commentId ?? mediaId;
  return {
    type: 'message',
    kind: 'mention',
    externalId: id,
    threadExternalId: id,
    direction: 'in',
    author: personOf('Instagram', { id: '' }),
    text: commentId ? 'Mentioned the account in a comment.' : 'Mentioned the account in a post.',
    createdAt: new Date(time),
    attachments: [],
    rootPost: { externalId: mediaId, permalink: null, text: null },
  };
}

function parse(rawBody: Buffer): AddressedInboxEvent[] {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new Error('The webhook body is not JSON.');
  }
  if (!isObj(body) || !Array.isArray(body.entry)) {
    throw new Error('The webhook body has no entry list.');
  }
  const object = body.object;
  if (object !== 'page' && object !== 'instagram') {
    throw new Error(`Herald does not take Meta webhooks for the object ${String(object)}.`);
  }
  const platform: PlatformName = object === 'page' ? 'Facebook' : 'Instagram';
  const events: AddressedInboxEvent[] = [];
  for (const entry of list(body.entry)) {
    const accountId = asStr(entry.id);
    if (!accountId) continue;
    // `changes` entries carry seconds, `messaging` entries milliseconds.
    const stamp = typeof entry.time === 'number' ? entry.time : Date.now();
    const time = stamp < 1e12 ? stamp * 1000 : stamp;
    const add = (event: InboxMessageEvent | null) => {
      if (event) events.push({ platform, accountExternalId: accountId, event });
    };
    for (const item of [...list(entry.messaging), ...list(entry.standby)]) {
      add(messagingEvent(platform, accountId, item));
    }
    for (const change of list(entry.changes)) {
      const value = isObj(change.value) ? change.value : null;
      if (!value) continue;
      if (object === 'page' && change.field === 'feed') add(feedEvent(accountId, value));
      if (object === 'instagram' && change.field === 'comments') {
        const event = instagramCommentEvent(accountId, value);
        if (event) event.createdAt = new Date(time);
        add(event);
      }
      if (object === 'instagram' && change.field === 'mentions') add(mentionEvent(value, time));
    }
  }
  return events;
}

/** The objects this endpoint takes; the app subscribes to no others. */
const OBJECTS = new Set(['page', 'instagram']);

export const metaWebhookReceiver: WebhookReceiver = {
  provider: 'meta',
  secretFrom: 'Facebook',
  usesVerifyToken: true,

  handshake: (query, { verifyToken }) => answerHubChallenge(query, verifyToken),

  verify: verifySignature,

  deliveryProblem(body) {
    if (!isObj(body) || typeof body.object !== 'string' || !OBJECTS.has(body.object))
      return 'This is not a delivery of a Facebook Page or an Instagram account: its object is not page or instagram.';
    if (!Array.isArray(body.entry)) return 'This Meta delivery has no entry list.';
    return null;
  },

  parse,
};
