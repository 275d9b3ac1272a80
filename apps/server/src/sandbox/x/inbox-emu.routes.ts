import type { FastifyInstance, FastifyRequest } from 'fastify';
import { avatarDataUrl } from '../kit/consent.js';
import { handleOf } from '../kit/html.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import { emuTenant, notYours, requireSharedControl } from '../kit/tenant.js';
import { ownsTweet } from './emu.routes.js';
import type { XInboxRoutes } from './inbox.routes.js';
import type { XInboxStore, XPerson } from './inbox.store.js';
import { renderTweet } from './render.js';
import { snowflake, stableUserId, type XPublishingStore, type XTweet } from './store.js';
import type { XCommentInput } from './tweets.routes.js';
import type { XDelivery } from './webhooks.routes.js';

/**
 * Test-facing inbox hooks (docs/inbox.md#x-sandbox), a "customer" acting on the connected account:
 * - `POST /_emu/inbox/dm {account, fromName, text, delayMs?}`: the customer sends the account a DM;
 * - `POST /_emu/inbox/mention {account, fromName, text, delayMs?}`: the customer posts a mention;
 * - `POST /_emu/inbox/reply {postId, fromName, text, delayMs?}`: the customer replies to a post
 *   (or to a reply in its conversation);
 * - `GET /_emu/inbox/dms?account=`: the account's DM events, oldest first;
 * - `GET /_emu/inbox/reads?account=`: the billed reads X answered the account (DM events and
 *   mentions: the cursor asked with and the ids returned), oldest first;
 * - `GET /_emu/inbox/tweets/{id}`: a post's hidden state;
 * - `POST /_emu/inbox/flush`: sends the deliveries `webhook_out_of_order` held, newest first;
 * - `POST /_emu/inbox/invalidate-webhook`: X marks the app's webhook invalid (a failed CRC), so
 *   nothing is delivered until `PUT /2/webhooks/{id}` passes the CRC again.
 * Each answers what was delivered to the webhook (`deliveries[].status`, null when held or later).
 */
export interface XInboxEmuDeps {
  oauth: SandboxOAuth;
  posts: XPublishingStore;
  inbox: XInboxStore;
  routes: XInboxRoutes;
  delivery: XDelivery;
  addComment(input: XCommentInput): Promise<XTweet>;
}

const TWEET_FIELDS = new Set([
  'author_id',
  'created_at',
  'conversation_id',
  'in_reply_to_user_id',
  'referenced_tweets',
]);

export function registerXInboxEmuRoutes(scope: FastifyInstance, deps: XInboxEmuDeps) {
  const { oauth, inbox } = deps;

  /** The account a request names, when it is one of the caller's organization's (else 404). */
  async function ownedAccount(request: FastifyRequest, ref: string) {
    const account = ref ? await oauth.findAccount(ref) : null;
    if (account && !emuTenant(request).owns(account.id)) throw notYours('account');
    return account;
  }

  /** The post a request names, when it concerns the caller's accounts (else 404). */
  async function ownedTweet(request: FastifyRequest, id: string) {
    const tweet = id ? await deps.posts.getTweet(id) : null;
    if (tweet && !(await ownsTweet(emuTenant(request), deps.posts, tweet))) throw notYours('post');
    return tweet;
  }

  async function customer(fromName: string): Promise<XPerson> {
    const person: XPerson = {
      id: stableUserId(fromName),
      name: fromName,
      username: handleOf(fromName, 'x_user', 15),
      pictureUrl: avatarDataUrl(fromName, 40),
    };
    await inbox.putPerson(person);
    return person;
  }

  const read = (body: unknown) => {
    const b = (body ?? {}) as Record<string, unknown>;
    return {
      account: typeof b.account === 'string' ? b.account.trim() : '',
      fromName: typeof b.fromName === 'string' ? b.fromName.trim() : '',
      text: typeof b.text === 'string' ? b.text : '',
      postId: typeof b.postId === 'string' ? b.postId : '',
      delayMs: Math.max(0, Math.min(600_000, Number(b.delayMs) || 0)),
    };
  };

  const postPayload = (tweet: XTweet) => renderTweet(tweet, TWEET_FIELDS);
  const userInclude = (p: XPerson) => ({
    id: p.id,
    name: p.name,
    username: p.username,
    profile_image_url: p.pictureUrl,
  });

  scope.post('/_emu/inbox/dm', async (request, reply) => {
    const input = read(request.body);
    const account = await ownedAccount(request, input.account);
    if (!account || !input.fromName || !input.text.trim())
      return reply
        .status(400)
        .send({ error: 'Send {account, fromName, text} of a connected account.' });
    const from = await customer(input.fromName);
    const { event, deliveries } = await deps.routes.sendDm(from.id, account.id, input.text);
    return reply.status(201).send({
      id: event.id,
      conversationId: event.conversationId,
      senderId: from.id,
      username: from.username,
      deliveries,
    });
  });

  scope.post('/_emu/inbox/mention', async (request, reply) => {
    const input = read(request.body);
    const account = await ownedAccount(request, input.account);
    if (!account || !input.fromName)
      return reply
        .status(400)
        .send({ error: 'Send {account, fromName, text} of a connected account.' });
    const from = await customer(input.fromName);
    const now = await oauth.now();
    const id = snowflake(now);
    const tweet: XTweet = {
      id,
      text: `@${account.username} ${input.text}`.trim(),
      authorId: from.id,
      author: { name: from.name, username: from.username, pictureUrl: from.pictureUrl },
      createdAt: now,
      conversationId: id,
      inReplyToTweetId: null,
      inReplyToUserId: null,
      mediaKeys: [],
      likeCount: 0,
      replyCount: 0,
      viaApi: false,
      deletedAt: null,
    };
    await deps.posts.saveTweet(tweet);
    const deliveries = await deps.delivery.deliver(
      account.id,
      'post.mention.create',
      postPayload(tweet),
      { includes: { users: [userInclude(from)] }, delayMs: input.delayMs },
    );
    return reply.status(201).send({ id, authorId: from.id, username: from.username, deliveries });
  });

  scope.post('/_emu/inbox/reply', async (request, reply) => {
    const input = read(request.body);
    const target = await ownedTweet(request, input.postId);
    if (!target || target.deletedAt !== null || !input.fromName || !input.text.trim())
      return reply.status(400).send({ error: 'Send {postId, fromName, text} of a live post.' });
    const from = await customer(input.fromName);
    const comment = await deps.addComment({
      target,
      fromName: from.name,
      message: input.text,
      likes: 0,
      authorId: from.id,
      username: from.username,
    });
    const root = await deps.posts.getTweet(comment.conversationId);
    const deliveries = await deps.delivery.deliver(
      target.authorId,
      'post.reply.create',
      postPayload(comment),
      {
        includes: {
          users: [userInclude(from)],
          ...(root ? { tweets: [postPayload(root)] } : {}),
        },
        delayMs: input.delayMs,
      },
    );
    return reply.status(201).send({
      id: comment.id,
      conversationId: comment.conversationId,
      authorId: from.id,
      username: from.username,
      deliveries,
    });
  });

  scope.get('/_emu/inbox/dms', async (request, reply) => {
    const ref = (request.query as Record<string, unknown>).account;
    const account = await ownedAccount(request, typeof ref === 'string' ? ref : '');
    if (!account)
      return reply.status(404).send({ error: 'No sandbox account has this name or id.' });
    const dms = (await inbox.dmsOf(account.id)).reverse();
    return {
      dms: dms.map((e) => ({
        id: e.id,
        conversationId: e.conversationId,
        senderId: e.senderId,
        recipientId: e.recipientId,
        text: e.text,
        createdAt: new Date(e.createdAt).toISOString(),
      })),
    };
  });

  scope.get('/_emu/inbox/reads', async (request, reply) => {
    const ref = (request.query as Record<string, unknown>).account;
    const account = await ownedAccount(request, typeof ref === 'string' ? ref : '');
    if (!account)
      return reply.status(404).send({ error: 'No sandbox account has this name or id.' });
    return { reads: await inbox.billedReads(account.id) };
  });

  scope.get('/_emu/inbox/tweets/:id', async (request, reply) => {
    const tweet = await ownedTweet(request, (request.params as { id: string }).id);
    if (!tweet) return reply.status(404).send({ error: 'No such post.' });
    return { id: tweet.id, hidden: !!tweet.hidden };
  });

  scope.post('/_emu/inbox/flush', async (request) => {
    const tenant = emuTenant(request);
    return { deliveries: await deps.delivery.flush((id) => tenant.owns(id)) };
  });

  // The app has one webhook for every organization's accounts.
  scope.post('/_emu/inbox/invalidate-webhook', async (request) => {
    requireSharedControl(emuTenant(request), "The sandbox app's webhook");
    const hooks = await inbox.webhooks();
    for (const hook of hooks) await inbox.saveWebhook({ ...hook, valid: false });
    return { invalidated: hooks.length };
  });
}
