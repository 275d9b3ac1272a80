import type { FastifyInstance, FastifyReply } from 'fastify';
import { avatarDataUrl } from '../kit/consent.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import type { XAccess, XCaller } from './access.js';
import { type XDmEvent, type XInboxStore, type XPerson, dmConversationId } from './inbox.store.js';
import { fieldList, includedUsers, pageOf, pageStart, pageToken, renderTweet } from './render.js';
import { xEscapeText, xFailures, xRoute } from './responses.js';
import { snowflake, type XPublishingStore, type XTweet } from './store.js';
import type { XDelivery } from './webhooks.routes.js';

/**
 * The inbox endpoints of the X emulator (docs/inbox.md#x-sandbox): legacy DM events
 * (`GET /2/dm_events`, per conversation, 30 days, 15 reads per 15 minutes per user across them,
 * answered 429 with `x-rate-limit-*`), sending a 1:1 DM, the mentions timeline with `since_id`,
 * hidden replies, and X's refusal of likes and follows to a self-serve app.
 */
export const X_INBOX = {
  dmReadsPerWindow: 15,
  dmWindowSeconds: 900,
  dmHistoryMs: 30 * 86_400_000,
  dmMaxLength: 10_000,
  mentionsKept: 800,
} as const;

type Query = Record<string, string | undefined>;

export interface XInboxDeps {
  oauth: SandboxOAuth;
  access: XAccess;
  posts: XPublishingStore;
  inbox: XInboxStore;
  delivery: XDelivery;
}

const after = (id: string, since: string) =>
  id.length > since.length || (id.length === since.length && id > since);

/** A person X knows: a connected account or someone the emulator made up. */
export async function personOf(deps: Pick<XInboxDeps, 'oauth' | 'inbox'>, id: string) {
  const known = await deps.inbox.getPerson(id);
  if (known) return known;
  const account = await deps.oauth.getAccount(id);
  if (!account) return null;
  return {
    id,
    name: account.name,
    username: account.username,
    pictureUrl: avatarDataUrl(account.name, 203),
  } satisfies XPerson;
}

function maxResults(q: Query, min: number, fallback: number) {
  if (q.max_results === undefined) return fallback;
  const n = Number(q.max_results);
  if (!Number.isInteger(n) || n < min || n > 100)
    throw xFailures.invalid(
      `The \`max_results\` query parameter value [${q.max_results}] is not between ${min} and 100`,
      { max_results: [q.max_results] },
    );
  return n;
}

/**
 * `previous_token` of a DM page: asked back as `pagination_token`, it answers the events newer
 * than that page (X's Pagination: https://docs.x.com/x-api/fundamentals/pagination). The
 * emulator's `next_token`s are render.ts's `after:` tokens; these are `before:` ones.
 */
const previousToken = (id: string) => Buffer.from(`before:${id}`).toString('base64url');
const previousStart = (token: string | undefined) => {
  if (!token) return null;
  const decoded = Buffer.from(token, 'base64url').toString();
  return decoded.startsWith('before:') ? decoded.slice(7) : null;
};

/**
 * One page of DM events (newest first): from the newest, after a `next_token` (older ones), or
 * before a `previous_token` (the `max` events just newer than it, so a poller that keeps the
 * newest page's `previous_token` is given only what arrived since).
 */
function dmPageOf(events: XDmEvent[], max: number, token: string | undefined) {
  const before = previousStart(token);
  if (before === null) {
    const { page, meta } = pageOf(events, max, checkToken(token));
    return {
      page,
      meta: {
        result_count: meta.result_count,
        ...(meta.next_token ? { next_token: meta.next_token } : {}),
        ...(page.length ? { previous_token: previousToken(page[0]!.id) } : {}),
      },
    };
  }
  const newer = events.filter((e) => after(e.id, before));
  const page = newer.slice(Math.max(0, newer.length - max));
  return {
    page,
    meta: {
      result_count: page.length,
      ...(page.length
        ? { next_token: pageToken(page.at(-1)!.id), previous_token: previousToken(page[0]!.id) }
        : {}),
    },
  };
}

function checkToken(token: string | undefined) {
  if (token !== undefined && pageStart(token) === undefined)
    throw xFailures.invalid('The `pagination_token` query parameter value is not valid.', {
      pagination_token: [token],
    });
  return token;
}

/** A DM event in the v2 shape (`dm_event.fields`). */
function renderDm(e: XDmEvent, fields: Set<string>) {
  const out: Record<string, unknown> = { id: e.id, event_type: 'MessageCreate' };
  out.text = xEscapeText(e.text);
  if (fields.has('sender_id')) out.sender_id = e.senderId;
  if (fields.has('dm_conversation_id')) out.dm_conversation_id = e.conversationId;
  if (fields.has('created_at')) out.created_at = new Date(e.createdAt).toISOString();
  return out;
}

/** The v1.1-style DM event XAA delivers (`dm.received` / `dm.sent`). */
export function xaaDmPayload(e: XDmEvent, people: XPerson[]) {
  return {
    direct_message_events: [
      {
        type: 'message_create',
        id: e.id,
        created_timestamp: String(e.createdAt),
        message_create: {
          target: { recipient_id: e.recipientId },
          sender_id: e.senderId,
          message_data: { text: e.text, entities: {} },
        },
      },
    ],
    users: Object.fromEntries(
      people.map((p) => [
        p.id,
        { data: { id: p.id, name: p.name, username: p.username, profile_image_url: p.pictureUrl } },
      ]),
    ),
  };
}

export function registerXInboxRoutes(scope: FastifyInstance, deps: XInboxDeps) {
  const { oauth, posts, inbox } = deps;

  /** One of the user's 15 DM reads per 15 minutes, or X's 429 with the window's reset. */
  async function countDmRead(caller: XCaller, reply: FastifyReply) {
    const now = await oauth.now();
    const windowMs = X_INBOX.dmWindowSeconds * 1000;
    const times = (await inbox.dmReads(caller.account.id)).filter((t) => t > now - windowMs);
    if (times.length >= X_INBOX.dmReadsPerWindow) {
      const resetsIn = times[0]! + windowMs - now;
      throw xFailures.rateLimited(
        Math.ceil((Date.now() + resetsIn) / 1000),
        X_INBOX.dmReadsPerWindow,
      );
    }
    times.push(now);
    await inbox.saveDmReads(caller.account.id, times);
    reply.headers({
      'x-rate-limit-limit': String(X_INBOX.dmReadsPerWindow),
      'x-rate-limit-remaining': String(X_INBOX.dmReadsPerWindow - times.length),
      'x-rate-limit-reset': String(Math.ceil((Date.now() + (times[0]! + windowMs - now)) / 1000)),
    });
  }

  /** Records a billed read for the account (see XBilledRead). */
  async function billed(userId: string, path: string, q: Query, returned: Array<{ id: string }>) {
    await inbox.logRead(userId, {
      at: await oauth.now(),
      path,
      sinceId: q.since_id ?? null,
      paginationToken: q.pagination_token ?? null,
      returned: returned.map((r) => r.id),
    });
  }

  async function dmAnswer(caller: XCaller, path: string, events: XDmEvent[], q: Query) {
    const max = maxResults(q, 1, 100);
    const since = (await oauth.now()) - X_INBOX.dmHistoryMs;
    const { page, meta } = dmPageOf(
      events.filter((e) => e.createdAt >= since),
      max,
      q.pagination_token,
    );
    await billed(caller.account.id, path, q, page);
    const fields = fieldList(q['dm_event.fields']);
    const expand = fieldList(q.expansions);
    const userIds = new Set<string>();
    if (expand.has('sender_id')) for (const e of page) userIds.add(e.senderId);
    if (expand.has('participant_ids'))
      for (const e of page) userIds.add(e.senderId).add(e.recipientId);
    const users = (await Promise.all([...userIds].map((id) => personOf(deps, id)))).filter(
      (p): p is XPerson => !!p,
    );
    const userFields = fieldList(q['user.fields']);
    return {
      ...(page.length ? { data: page.map((e) => renderDm(e, fields)) } : {}),
      ...(users.length
        ? {
            includes: {
              users: users.map((u) => ({
                id: u.id,
                name: u.name,
                username: u.username,
                ...(userFields.has('profile_image_url') ? { profile_image_url: u.pictureUrl } : {}),
              })),
            },
          }
        : {}),
      meta,
    };
  }

  const DM_READ = ['dm.read', 'tweet.read', 'users.read'];
  const DM_WRITE = ['dm.write', 'dm.read', 'tweet.read', 'users.read'];

  scope.get(
    '/2/dm_events',
    xRoute(async (request, reply) => {
      const caller = await deps.access(request, DM_READ);
      await countDmRead(caller, reply);
      return dmAnswer(
        caller,
        '/2/dm_events',
        await inbox.dmsOf(caller.account.id),
        request.query as Query,
      );
    }),
  );

  scope.get(
    '/2/dm_conversations/with/:participant/dm_events',
    xRoute(async (request, reply) => {
      const caller = await deps.access(request, DM_READ);
      await countDmRead(caller, reply);
      const other = (request.params as { participant: string }).participant;
      const conversation = dmConversationId(caller.account.id, other);
      const events = (await inbox.dmsOf(caller.account.id)).filter(
        (e) => e.conversationId === conversation,
      );
      return dmAnswer(caller, request.url.split('?')[0]!, events, request.query as Query);
    }),
  );

  scope.get(
    '/2/dm_conversations/:conversation/dm_events',
    xRoute(async (request, reply) => {
      const caller = await deps.access(request, DM_READ);
      await countDmRead(caller, reply);
      const conversation = (request.params as { conversation: string }).conversation;
      const events = (await inbox.dmsOf(caller.account.id)).filter(
        (e) => e.conversationId === conversation,
      );
      return dmAnswer(caller, request.url.split('?')[0]!, events, request.query as Query);
    }),
  );

  /** Stores a DM and tells both sides' subscriptions (dm.received / dm.sent). */
  async function sendDm(senderId: string, recipientId: string, text: string) {
    const now = await oauth.now();
    const event: XDmEvent = {
      id: snowflake(now),
      conversationId: dmConversationId(senderId, recipientId),
      senderId,
      recipientId,
      text,
      createdAt: now,
    };
    await inbox.saveDm(event);
    const people = (
      await Promise.all([personOf(deps, senderId), personOf(deps, recipientId)])
    ).filter((p): p is XPerson => !!p);
    const payload = xaaDmPayload(event, people);
    const sent = await deps.delivery.deliver(senderId, 'dm.sent', payload);
    const received = await deps.delivery.deliver(recipientId, 'dm.received', payload);
    return { event, deliveries: [...sent, ...received] };
  }

  scope.post(
    '/2/dm_conversations/with/:participant/messages',
    xRoute(async (request, reply) => {
      const caller = await deps.access(request, DM_WRITE);
      const other = (request.params as { participant: string }).participant;
      const body = (request.body ?? {}) as { text?: unknown };
      const text = typeof body.text === 'string' ? body.text : '';
      if (!text.trim())
        throw xFailures.invalid('You must provide text or an attachment.', { text: [] });
      if (text.length > X_INBOX.dmMaxLength)
        throw xFailures.invalid(`The text is longer than ${X_INBOX.dmMaxLength} characters.`, {
          text: [],
        });
      if (other === caller.account.id || !(await personOf(deps, other)))
        throw xFailures.forbidden('You cannot send messages to this user.');
      const { event } = await sendDm(caller.account.id, other, text);
      return reply
        .status(201)
        .send({ data: { dm_conversation_id: event.conversationId, dm_event_id: event.id } });
    }),
  );

  scope.get(
    '/2/users/:id/mentions',
    xRoute(async (request) => {
      const caller = await deps.access(request, ['tweet.read', 'users.read']);
      const userId = (request.params as { id: string }).id;
      const q = request.query as Query;
      const me = await personOf(deps, userId);
      const handle = me ? `@${me.username.toLowerCase()}` : null;
      let tweets = (await posts.allTweets())
        .filter((t) => t.deletedAt === null && t.authorId !== userId)
        .filter(
          (t) =>
            t.inReplyToUserId === userId || (!!handle && t.text.toLowerCase().includes(handle)),
        )
        .sort((a, b) => b.id.length - a.id.length || (a.id < b.id ? 1 : -1))
        .slice(0, X_INBOX.mentionsKept);
      if (q.since_id) tweets = tweets.filter((t) => after(t.id, q.since_id!));
      if (q.until_id) tweets = tweets.filter((t) => after(q.until_id!, t.id));
      const max = maxResults(q, 5, 10);
      const { page, meta } = pageOf(tweets, max, checkToken(q.pagination_token));
      await billed(caller.account.id, `/2/users/${userId}/mentions`, q, page);
      const fields = fieldList(q['tweet.fields']);
      const expand = fieldList(q.expansions);
      const referenced: XTweet[] = [];
      if (expand.has('referenced_tweets.id'))
        for (const t of page) {
          const parent = t.inReplyToTweetId ? await posts.getTweet(t.inReplyToTweetId) : null;
          if (parent && parent.deletedAt === null) referenced.push(parent);
        }
      const userFields = fieldList(q['user.fields']);
      return {
        ...(page.length ? { data: page.map((t) => renderTweet(t, fields)) } : {}),
        ...(page.length
          ? {
              includes: {
                ...(expand.has('author_id') ? { users: includedUsers(page, userFields) } : {}),
                ...(referenced.length
                  ? { tweets: referenced.map((t) => renderTweet(t, fields)) }
                  : {}),
              },
            }
          : {}),
        meta,
      };
    }),
  );

  // Liking and following left X's self-serve API tiers on 2026-04-20: a pay-per-use app gets
  // X's 403 `client-forbidden` (client-not-enrolled), whoever the user and whatever the scopes.
  const removed = xRoute(async (request) => {
    await deps.access(request, []);
    throw xFailures.clientNotEnrolled();
  });
  scope.post('/2/users/:id/likes', removed);
  scope.delete('/2/users/:id/likes/:tweetId', removed);
  scope.post('/2/users/:id/following', removed);
  scope.delete('/2/users/:sourceId/following/:targetId', removed);

  scope.put(
    '/2/tweets/:id/hidden',
    xRoute(async (request) => {
      const caller = await deps.access(request, [
        'tweet.moderate.write',
        'tweet.read',
        'users.read',
      ]);
      const id = (request.params as { id: string }).id;
      const hidden = (request.body as { hidden?: unknown } | undefined)?.hidden;
      if (typeof hidden !== 'boolean')
        throw xFailures.invalid('The `hidden` field must be true or false.', { hidden: [] });
      const tweet = await posts.getTweet(id);
      if (!tweet || tweet.deletedAt !== null) throw xFailures.notFound(id);
      const root = await posts.getTweet(tweet.conversationId);
      if (tweet.id === tweet.conversationId || root?.authorId !== caller.account.id)
        throw xFailures.forbidden('You can only hide replies to conversations you started.');
      tweet.hidden = hidden;
      await posts.saveTweet(tweet);
      return { data: { hidden } };
    }),
  );

  return { sendDm };
}

export type XInboxRoutes = ReturnType<typeof registerXInboxRoutes>;
