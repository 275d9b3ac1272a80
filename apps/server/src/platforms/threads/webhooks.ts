import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressedInboxEvent, WebhookHeaders, WebhookReceiver } from '../inbox-types.js';
import { answerHubChallenge } from '../webhook-handshake.js';
import { threadsMentionEvent, threadsReplyEvent, type ThreadsInboxNode } from './inbox.js';

/**
 * Threads webhooks at `{api}/webhooks/threads` (docs/inbox.md#threads-webhooks): Meta's GET
 * handshake (`hub.challenge` when `hub.verify_token` is ours), `X-Hub-Signature-256` over the raw
 * bytes with the app secret, and Threads' own envelope
 * `{app_id, topic, target_id, time, values:{value, field}}` — not Page webhooks' `entry[]`. A body
 * of another shape (a Page delivery signed with a secret the apps share) is refused before it is
 * stored.
 */

/** `sha256=<hex HMAC-SHA256(app secret, raw body)>`. */
export const threadsSignature = (secret: string, rawBody: Buffer | string) =>
  `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const headerOf = (headers: WebhookHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function parseOne(item: Record<string, unknown>): AddressedInboxEvent[] {
  const target = item.target_id;
  const account = typeof target === 'string' || typeof target === 'number' ? String(target) : null;
  if (!account) throw new Error('A Threads delivery without target_id.');
  const changes = Array.isArray(item.values) ? item.values : [item.values];
  const out: AddressedInboxEvent[] = [];
  for (const change of changes) {
    if (!isObj(change) || !isObj(change.value))
      throw new Error('A Threads delivery without values.');
    const value = change.value as unknown as ThreadsInboxNode & {
      root_post?: { id: string; owner_id?: string | number; username?: string };
    };
    if (typeof value.id !== 'string') throw new Error('A Threads value without an id.');
    if (change.field === 'replies') {
      const root = value.root_post?.id ?? value.replied_to?.id ?? value.id;
      // The owner answering on its own post: our reply, written on Threads itself.
      const own =
        String(value.root_post?.owner_id ?? '') === account &&
        !!value.username &&
        value.username === value.root_post?.username;
      out.push({
        platform: 'Threads',
        accountExternalId: account,
        event: threadsReplyEvent(value, root, own),
      });
    } else if (change.field === 'mentions') {
      out.push({
        platform: 'Threads',
        accountExternalId: account,
        event: threadsMentionEvent(value),
      });
    }
    // publish and delete carry nothing the inbox stores.
  }
  return out;
}

export const threadsWebhookReceiver: WebhookReceiver = {
  provider: 'threads',
  secretFrom: 'Threads',
  usesVerifyToken: true,

  handshake: (query, { verifyToken }) => answerHubChallenge(query, verifyToken),

  verify(rawBody, headers, appSecret) {
    const given = headerOf(headers, 'x-hub-signature-256');
    if (!given || !appSecret) return false;
    const expected = Buffer.from(threadsSignature(appSecret, rawBody));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  },

  deliveryProblem(body) {
    const items = Array.isArray(body) ? body : [body];
    const enveloped = (item: unknown) =>
      isObj(item) &&
      // Page and Instagram deliveries name their object; Threads' envelope has none.
      !('object' in item) &&
      (typeof item.target_id === 'string' || typeof item.target_id === 'number') &&
      (isObj(item.values) || Array.isArray(item.values));
    if (items.length === 0 || !items.every(enveloped))
      return 'This is not a Threads delivery: each one needs a target_id and values, and no object.';
    return null;
  },

  parse(rawBody) {
    const body: unknown = JSON.parse(rawBody.toString('utf8'));
    const items = Array.isArray(body) ? body : [body];
    return items.flatMap((item) => {
      if (!isObj(item) || !('values' in item)) throw new Error('Not a Threads webhook delivery.');
      return parseOne(item);
    });
  },
};
