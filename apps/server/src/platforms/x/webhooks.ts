import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressedInboxEvent, WebhookHeaders, WebhookReceiver } from '../inbox-types.js';
import { handshakeTokenProblem } from '../webhook-handshake.js';
import { requestJson, basicAuth, form } from '../oauth.js';
import type { AdapterSettings, StoredAccount } from '../types.js';
import { withRateLimitReset, type XUrls } from './api.js';
import { describeXApiError } from './errors.js';
import {
  xDecode,
  xDmConversationId,
  xPerson,
  xTweetEvent,
  type XInboxTweet,
  type XInboxUser,
} from './inbox.js';

/**
 * X Activity API (XAA) deliveries to `{api}/webhooks/x` (docs/inbox.md#x-webhooks): the CRC
 * handshake, `x-twitter-webhooks-signature` over the raw bytes, and the events the inbox reads. The
 * key of both is the app's consumer secret, so the CRC answers only tokens of X's shape (never a
 * JSON body) and a delivery must be XAA events.
 */

/** The XAA event types Herald subscribes each account to. */
export const X_INBOX_EVENT_TYPES = [
  'dm.received',
  'dm.sent',
  'post.mention.create',
  'post.reply.create',
] as const;

const hmacBase64 = (secret: string, data: string | Buffer) =>
  createHmac('sha256', secret).update(data).digest('base64');

/** `sha256=<base64 HMAC-SHA256(consumer secret, crc_token)>`, X's CRC answer. */
export const xCrcResponse = (secret: string, crcToken: string) =>
  `sha256=${hmacBase64(secret, crcToken)}`;

/** The signature X puts in `x-twitter-webhooks-signature` for a body. */
export const xSignature = (secret: string, rawBody: Buffer | string) =>
  `sha256=${hmacBase64(secret, rawBody)}`;

const headerOf = (headers: WebhookHeaders, name: string) => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

interface XDmV1Event {
  type?: string;
  id?: string;
  created_timestamp?: string;
  message_create?: {
    target?: { recipient_id?: string };
    sender_id?: string;
    message_data?: { text?: string };
  };
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `payload.users` of a v1.1-style DM event: `{<id>: {data?:{…}} | {…}}`. */
function dmUsers(raw: unknown): Map<string, XInboxUser> {
  const users = new Map<string, XInboxUser>();
  if (!isObj(raw)) return users;
  for (const [id, value] of Object.entries(raw)) {
    const u = isObj(value) && isObj(value.data) ? value.data : value;
    if (!isObj(u)) continue;
    users.set(id, {
      id,
      name: typeof u.name === 'string' ? u.name : undefined,
      username:
        typeof u.username === 'string'
          ? u.username
          : typeof u.screen_name === 'string'
            ? u.screen_name
            : undefined,
      profile_image_url:
        typeof u.profile_image_url === 'string'
          ? u.profile_image_url
          : typeof u.profile_image_url_https === 'string'
            ? u.profile_image_url_https
            : undefined,
    });
  }
  return users;
}

function parseOne(data: Record<string, unknown>): AddressedInboxEvent[] {
  const filter = isObj(data.filter) ? data.filter : {};
  const me = typeof filter.user_id === 'string' ? filter.user_id : null;
  const type = data.event_type;
  if (!me || typeof type !== 'string')
    throw new Error('An X event without filter.user_id or event_type.');
  const payload = isObj(data.payload) ? data.payload : {};

  if (type === 'dm.received' || type === 'dm.sent') {
    const events = Array.isArray(payload.direct_message_events)
      ? payload.direct_message_events
      : [];
    const users = dmUsers(payload.users);
    const out: AddressedInboxEvent[] = [];
    for (const raw of events as XDmV1Event[]) {
      const create = raw.message_create;
      if (raw.type !== 'message_create' || !raw.id || !create?.sender_id) continue;
      const sender = create.sender_id;
      const recipient = create.target?.recipient_id ?? me;
      const outgoing = sender === me;
      const other = outgoing ? recipient : sender;
      out.push({
        platform: 'X',
        accountExternalId: me,
        event: {
          type: 'message',
          kind: 'dm',
          externalId: raw.id,
          threadExternalId: xDmConversationId(sender, recipient),
          direction: outgoing ? 'out' : 'in',
          author: xPerson(sender, users.get(sender)),
          counterpart: xPerson(other, users.get(other)),
          text: xDecode(create.message_data?.text ?? ''),
          createdAt: new Date(Number(raw.created_timestamp) || Date.now()),
          attachments: [],
        },
      });
    }
    return out;
  }

  if (type === 'post.mention.create' || type === 'post.reply.create') {
    const tweet = payload as unknown as XInboxTweet;
    if (typeof tweet.id !== 'string' || typeof tweet.text !== 'string')
      throw new Error(`An X ${type} event without a post.`);
    const includes = isObj(data.includes) ? data.includes : {};
    const users = new Map(
      (Array.isArray(includes.users) ? (includes.users as XInboxUser[]) : []).map((u) => [u.id, u]),
    );
    const tweets = new Map(
      (Array.isArray(includes.tweets) ? (includes.tweets as XInboxTweet[]) : []).map((t) => [
        t.id,
        t,
      ]),
    );
    return [{ platform: 'X', accountExternalId: me, event: xTweetEvent(tweet, me, users, tweets) }];
  }
  // dm.read, typing, likes and the rest carry nothing the inbox stores.
  return [];
}

export const xWebhookReceiver: WebhookReceiver = {
  provider: 'x',
  secretFrom: 'X',
  usesVerifyToken: false,

  handshake(query, secrets) {
    const token = query.crc_token;
    if (token === undefined) return null;
    const malformed = handshakeTokenProblem('crc_token', token);
    if (malformed) return { malformed };
    return {
      contentType: 'application/json',
      body: JSON.stringify({ response_token: xCrcResponse(secrets.appSecret, token) }),
    };
  },

  verify(rawBody, headers, appSecret) {
    const given = headerOf(headers, 'x-twitter-webhooks-signature');
    if (!given || !appSecret) return false;
    const expected = Buffer.from(xSignature(appSecret, rawBody));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  },

  deliveryProblem(body) {
    if (!isObj(body) || !('data' in body))
      return 'This is not an X Activity API delivery: it has no data.';
    const items = Array.isArray(body.data) ? body.data : [body.data];
    const addressed = (item: unknown) =>
      isObj(item) &&
      typeof item.event_type === 'string' &&
      isObj(item.filter) &&
      typeof item.filter.user_id === 'string';
    if (items.length === 0 || !items.every(addressed))
      return 'This is not an X Activity API delivery: each event needs an event_type and a filter.user_id.';
    return null;
  },

  parse(rawBody) {
    const body: unknown = JSON.parse(rawBody.toString('utf8'));
    if (!isObj(body) || !('data' in body)) throw new Error('Not an X Activity API delivery.');
    const items = Array.isArray(body.data) ? body.data : [body.data];
    return items.flatMap((item) => {
      if (!isObj(item)) throw new Error('Not an X Activity API event.');
      return parseOne(item);
    });
  },
};

/**
 * The app's webhook and the accounts' subscriptions (docs/inbox.md#x-webhooks): `POST /2/webhooks`
 * with an app-only token (X then sends the CRC), and one `POST /2/activity/subscriptions` per
 * event type with the user's token.
 */
export function createXWebhookAdmin(settings: AdapterSettings<XUrls>) {
  const http = withRateLimitReset(settings.http);
  const base = settings.urls.apiBase;

  async function appToken() {
    const answer = await requestJson<{ access_token?: string }>(
      http,
      'X',
      `${base}/oauth2/token`,
      {
        method: 'POST',
        headers: {
          authorization: basicAuth(settings.clientId, settings.clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form({ grant_type: 'client_credentials' }),
      },
      describeXApiError,
    );
    if (!answer?.access_token) throw new Error('X gave no app-only token.');
    return answer.access_token;
  }

  interface XWebhook {
    id: string;
    url: string;
    valid: boolean;
  }

  return {
    /** The app's webhooks as X holds them. */
    async list(): Promise<XWebhook[]> {
      const token = await appToken();
      const answer = await requestJson<{ data?: XWebhook[] }>(
        http,
        'X',
        `${base}/2/webhooks`,
        { headers: { authorization: `Bearer ${token}` } },
        describeXApiError,
      );
      return answer?.data ?? [];
    },

    /**
     * Registers `url` unless X already holds it valid; re-validates it (`PUT`, a new CRC) when X
     * marked it invalid. Returns the webhook id.
     */
    async ensure(url: string): Promise<string> {
      const token = await appToken();
      const auth = { authorization: `Bearer ${token}` };
      const listed = await requestJson<{ data?: XWebhook[] }>(
        http,
        'X',
        `${base}/2/webhooks`,
        { headers: auth },
        describeXApiError,
      );
      const existing = (listed?.data ?? []).find((w) => w.url === url);
      if (existing && existing.valid) return existing.id;
      if (existing) {
        await requestJson(
          http,
          'X',
          `${base}/2/webhooks/${encodeURIComponent(existing.id)}`,
          { method: 'PUT', headers: auth },
          describeXApiError,
        );
        return existing.id;
      }
      const created = await requestJson<{ data?: { id?: string } }>(
        http,
        'X',
        `${base}/2/webhooks`,
        {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ url }),
        },
        describeXApiError,
      );
      if (!created?.data?.id) throw new Error('X registered the webhook without an id.');
      return created.data.id;
    },

    /**
     * Whether X still delivers this account's inbox events: a valid webhook, and a subscription
     * for each event type (`GET /2/activity/subscriptions`, app-only).
     */
    async isSubscribed(account: StoredAccount): Promise<boolean> {
      const token = await appToken();
      const auth = { authorization: `Bearer ${token}` };
      const [hooks, subs] = await Promise.all([
        requestJson<{ data?: XWebhook[] }>(
          http,
          'X',
          `${base}/2/webhooks`,
          { headers: auth },
          describeXApiError,
        ),
        requestJson<{ data?: Array<{ event_type?: string; filter?: { user_id?: string } }> }>(
          http,
          'X',
          `${base}/2/activity/subscriptions`,
          { headers: auth },
          describeXApiError,
        ),
      ]);
      if (!(hooks?.data ?? []).some((w) => w.valid)) return false;
      const mine = new Set(
        (subs?.data ?? [])
          .filter((sub) => sub.filter?.user_id === account.externalId)
          .map((sub) => sub.event_type),
      );
      return X_INBOX_EVENT_TYPES.every((type) => mine.has(type));
    },

    /** Subscribes the account to the inbox's event types (one subscription per type). */
    async subscribe(account: StoredAccount, webhookId?: string) {
      for (const eventType of X_INBOX_EVENT_TYPES) {
        try {
          await requestJson(
            http,
            'X',
            `${base}/2/activity/subscriptions`,
            {
              method: 'POST',
              headers: {
                authorization: `Bearer ${account.tokens.accessToken}`,
                'content-type': 'application/json',
              },
              body: JSON.stringify({
                event_type: eventType,
                filter: { user_id: account.externalId },
                tag: 'herald-inbox',
                ...(webhookId ? { webhook_id: webhookId } : {}),
              }),
            },
            describeXApiError,
          );
        } catch (err) {
          // Subscribed already: what was asked for.
          if ((err as { details?: { status?: number } }).details?.status === 409) continue;
          throw err;
        }
      }
    },
  };
}
