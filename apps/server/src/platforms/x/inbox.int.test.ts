import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxHarness } from '../../test/sandbox-harness.js';
import { expectPlatformError, useHarness } from '../../test/network-tests.js';
import type { AddressedInboxEvent, InboxAdapter, InboxThreadRef } from '../inbox-types.js';
import type { StoredAccount } from '../types.js';
import { network } from './index.js';
import { createXWebhookAdmin, xWebhookReceiver } from './webhooks.js';

// The sandbox reaches Herald's receiver only; the harness carries that to `herald` below.
const h = useHarness(() => startSandboxHarness(network, { heraldStandIn: () => heraldOrigin }));
const inbox = (): InboxAdapter => h.adapter.inbox!;

const stored = (a: {
  externalId: string;
  tokens: StoredAccount['tokens'];
  extra?: Record<string, unknown>;
}): StoredAccount => ({
  externalId: a.externalId,
  tokens: a.tokens,
  extra: a.extra ?? {},
  secrets: {},
});

async function connect(name: string) {
  const { account } = await h.connectAs(name);
  return { account: stored(account), username: account.username! };
}

/** Herald's webhook endpoint as the inbox module runs it: handshake, verify, parse. */
interface Received {
  verified: boolean;
  events: AddressedInboxEvent[];
}
let herald: FastifyInstance;
let heraldOrigin = '';
/** Herald's receiver as the sandbox knows it. */
let heraldUrl = '';
let secret = () => '';
const received: Received[] = [];

beforeAll(async () => {
  herald = Fastify({ logger: false });
  herald.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_r, body, done) =>
    done(null, body),
  );
  herald.get('/webhooks/x', async (request, reply) => {
    const answer = xWebhookReceiver.handshake(request.query as Record<string, string>, {
      appSecret: secret(),
      verifyToken: 'unused',
    });
    if (!answer) return reply.status(403).send();
    if ('malformed' in answer) return reply.status(400).send();
    return reply.type(answer.contentType).send(answer.body);
  });
  herald.post('/webhooks/x', async (request, reply) => {
    const raw = request.body as Buffer;
    const verified = xWebhookReceiver.verify(raw, request.headers, secret());
    // As Herald's route: a signed body of another kind is refused before it is read.
    if (verified && xWebhookReceiver.deliveryProblem(JSON.parse(raw.toString('utf8'))))
      return reply.status(400).send();
    received.push({ verified, events: verified ? xWebhookReceiver.parse(raw) : [] });
    return reply.status(verified ? 200 : 403).send();
  });
  heraldOrigin = await herald.listen({ host: '127.0.0.1', port: 0 });
  heraldUrl = `${h.heraldApi}/webhooks/x`;
});
afterAll(async () => {
  await herald.close();
});

const dmThread = (customerId: string, account: StoredAccount): InboxThreadRef => ({
  kind: 'dm',
  threadExternalId: [customerId, account.externalId].sort().join('-'),
  participantExternalId: customerId,
  rootPostExternalId: null,
});

describe('X inbox adapter against the X sandbox', () => {
  it('says what X gives: DMs without a window, hide but no delete, the X Chat gap, 15-minute polls', async () => {
    const { account } = await connect('caps_account');
    const caps = inbox().capabilities(account);
    expect(caps).toMatchObject({
      dm: true,
      comments: true,
      mentions: true,
      // X removed Likes from its self-serve API on 2026-04-20.
      like: false,
      likeUnavailable: expect.stringMatching(/no longer lets apps like posts.*like it on X itself/),
      hide: true,
      deleteComment: false,
      privateReply: false,
      dmWindowHours: null,
      replyMaxLength: 280,
    });
    expect(caps.pollIntervalMinutes).toBeGreaterThanOrEqual(15);
    expect(caps.limitation).toMatch(/Encrypted X Chat/);
    expect(
      inbox().capabilities({ ...account, extra: { subscriptionType: 'Premium' } }).replyMaxLength,
    ).toBe(25_000);
  });

  it('polls DMs, mentions and replies to our posts into conversations, then only what is new', async () => {
    const { account, username } = await connect('poll_account');
    const posted = (await h.adapter.publishing!.finalize(
      account,
      { text: 'Our launch post', media: [], idempotencyKey: 'k1' },
      {},
    ))!;

    const dm = await h.emu('POST', 'inbox/dm', {
      account: username,
      fromName: 'Cara Customer',
      text: 'Hi & hello <3',
    });
    const mention = await h.emu('POST', 'inbox/mention', {
      account: username,
      fromName: 'Max Mention',
      text: 'look at this',
    });
    const comment = await h.emu('POST', 'inbox/reply', {
      postId: posted.externalId,
      fromName: 'Rita Reply',
      text: 'Love it',
    });

    const first = await inbox().poll(account, null);
    expect(first.retryAfter).toBeUndefined();
    const byId = new Map(first.events.map((e) => [e.externalId, e]));
    expect(byId.size).toBe(3);
    expect(byId.get(dm.id)).toMatchObject({
      kind: 'dm',
      direction: 'in',
      threadExternalId: dm.conversationId,
      text: 'Hi & hello <3',
      author: { externalId: dm.senderId, name: 'Cara Customer', username: dm.username },
      counterpart: { externalId: dm.senderId, profileUrl: `https://x.com/${dm.username}` },
    });
    expect(byId.get(mention.id)).toMatchObject({
      kind: 'mention',
      threadExternalId: mention.id,
      text: `@${username} look at this`,
      author: { name: 'Max Mention' },
    });
    expect(byId.get(comment.id)).toMatchObject({
      kind: 'comment',
      threadExternalId: posted.externalId,
      parentExternalId: null,
      text: 'Love it',
      rootPost: { externalId: posted.externalId, text: 'Our launch post' },
    });

    // Nothing new: X is asked from the cursors (since_id, the newest DM page's previous_token)
    // and returns nothing, so nothing already read is billed again.
    const readsBefore = (await h.emu('GET', `inbox/reads?account=${username}`)).reads.length;
    const second = await inbox().poll(account, first.cursor);
    expect(second.events).toEqual([]);
    expect(second.billedReads).toBe(0);
    const asked = (await h.emu('GET', `inbox/reads?account=${username}`)).reads.slice(readsBefore);
    expect(asked).toEqual([
      expect.objectContaining({ sinceId: comment.id, returned: [] }),
      expect.objectContaining({
        path: '/2/dm_events',
        paginationToken: expect.any(String),
        returned: [],
      }),
    ]);

    const later = await h.emu('POST', 'inbox/dm', {
      account: username,
      fromName: 'Cara Customer',
      text: 'Are you there?',
    });
    const third = await inbox().poll(account, second.cursor);
    expect(third.events.map((e) => e.externalId)).toEqual([later.id]);
    expect(third.events[0]!.threadExternalId).toBe(dm.conversationId);
    // One DM event: $0.010, two post reads of the organization's budget.
    expect(third.billedReads).toBe(2);
  });

  it('keeps each page within the read budget and continues from where the budget stopped it', async () => {
    const { account, username } = await connect('budget_account');
    const ids: string[] = [];
    for (const text of ['a', 'b', 'c', 'd'])
      ids.push((await h.emu('POST', 'inbox/dm', { account: username, fromName: 'Bo', text })).id);
    // Five reads: mentions take pages of at least 5, so only DMs, two at two reads each.
    const first = await inbox().poll(account, null, { readBudget: 5 });
    expect(first.billedReads).toBe(4);
    expect(first.events.map((e) => e.externalId)).toEqual([ids[3], ids[2]]);
    const rest = await inbox().poll(account, first.cursor, { readBudget: 100 });
    expect(rest.events.map((e) => e.externalId)).toEqual([ids[1], ids[0]]);
    const none = await inbox().poll(account, rest.cursor, { readBudget: 100 });
    expect(none.events).toEqual([]);
  });

  it('stops at 15 DM reads per 15 minutes and says when to come back, keeping what it read', async () => {
    const { account, username } = await connect('limit_account');
    let cursor = (await inbox().poll(account, null)).cursor;
    for (let i = 1; i < 15; i++) cursor = (await inbox().poll(account, cursor)).cursor;
    const mention = await h.emu('POST', 'inbox/mention', {
      account: username,
      fromName: 'Late Mention',
      text: 'hey',
    });
    await h.emu('POST', 'inbox/dm', { account: username, fromName: 'Late Dm', text: 'waiting' });

    const before = Date.now();
    const limited = await inbox().poll(account, cursor);
    expect(limited.events.map((e) => e.externalId)).toEqual([mention.id]);
    expect(limited.retryAfter!.getTime()).toBeGreaterThan(before + 14 * 60_000);
    expect(limited.retryAfter!.getTime()).toBeLessThanOrEqual(before + 15 * 60_000 + 2_000);

    // Fifteen minutes later the DM arrives, the mention is not read twice.
    await h.advanceClock(15 * 60 + 1);
    const after = await inbox().poll(account, limited.cursor);
    expect(after.retryAfter).toBeUndefined();
    expect(after.events.map((e) => [e.kind, e.text])).toEqual([['dm', 'waiting']]);
  });

  it('sends a DM, finds it after an unknown outcome, and says null for one never sent', async () => {
    const { account, username } = await connect('dm_sender');
    const dm = await h.emu('POST', 'inbox/dm', {
      account: username,
      fromName: 'Dee Customer',
      text: 'Question',
    });
    const thread = dmThread(dm.senderId, account);
    const since = new Date(Date.now() - 1000);
    const sent = await inbox().sendDm!(account, thread, 'Here is the answer');
    const { dms } = await h.emu('GET', `inbox/dms?account=${username}`);
    expect(dms.filter((d: { text: string }) => d.text === 'Here is the answer')).toEqual([
      expect.objectContaining({
        id: sent.externalId,
        senderId: account.externalId,
        recipientId: dm.senderId,
      }),
    ]);
    expect(await inbox().findSent!(account, thread, 'Here is the answer', since)).toMatchObject({
      externalId: sent.externalId,
    });
    expect(await inbox().findSent!(account, thread, 'Never sent', since)).toBeNull();

    const tooLong = await expectPlatformError(inbox().sendDm!(account, thread, 'x'.repeat(10_001)));
    expect(tooLong.kind).toBe('bad_request');
    expect(tooLong.message).toMatch(/10,000/);
  });

  it('replies to a comment, finds the reply and hides the comment; offers no like', async () => {
    const { account } = await connect('replier');
    const posted = await h.adapter.publishing!.finalize(
      account,
      { text: 'Reply target post', media: [], idempotencyKey: 'k2' },
      {},
    );
    const comment = await h.emu('POST', 'inbox/reply', {
      postId: posted.externalId,
      fromName: 'Cole Comment',
      text: 'Nice one',
    });
    const thread: InboxThreadRef = {
      kind: 'comments',
      threadExternalId: posted.externalId,
      participantExternalId: comment.authorId,
      rootPostExternalId: posted.externalId,
    };
    const since = new Date(Date.now() - 1000);
    // X's "summoned" rule (self-serve tiers): a comment that did not mention us cannot be answered.
    const refused = await expectPlatformError(
      inbox().replyToComment!(account, thread, comment.id, 'Thank you!'),
    );
    expect(refused.message).toMatch(/summoned/);
    await h.setKnob('replier', 'reply_open');
    const reply = await inbox().replyToComment!(account, thread, comment.id, 'Thank you!');
    const { posts } = await h.emu('GET', `posts?account=${account.externalId}&replies=1`);
    expect(posts.find((p: { id: string }) => p.id === reply.externalId)).toMatchObject({
      inReplyTo: comment.id,
      text: 'Thank you!',
    });
    expect(await inbox().findSent!(account, thread, 'Thank you!', since)).toMatchObject({
      externalId: reply.externalId,
    });

    expect(inbox().like).toBeUndefined();
    await inbox().hide!(account, comment.id, true);
    expect(await h.emu('GET', `inbox/tweets/${comment.id}`)).toEqual({
      id: comment.id,
      hidden: true,
    });
    await inbox().hide!(account, comment.id, false);
    expect(await h.emu('GET', `inbox/tweets/${comment.id}`)).toMatchObject({ hidden: false });

    const long = await expectPlatformError(
      inbox().replyToComment!(account, thread, comment.id, 'y'.repeat(281)),
    );
    expect(long.message).toMatch(/280/);
  });
});

describe('X Activity API webhooks between the sandbox and the receiver', () => {
  it('passes the CRC with the app secret and refuses a webhook whose CRC answer is wrong', async () => {
    secret = () => 'not-the-secret';
    await expect(createXWebhookAdmin(h.settings).ensure(heraldUrl)).rejects.toThrow(/CRC/);
    secret = () => h.settings.clientSecret;
    const id = await createXWebhookAdmin(h.settings).ensure(heraldUrl);
    expect(id).toMatch(/^\d+$/);
    // Asking again finds it.
    expect(await createXWebhookAdmin(h.settings).ensure(heraldUrl)).toBe(id);
    expect(await createXWebhookAdmin(h.settings).list()).toEqual([
      expect.objectContaining({ id, url: heraldUrl, valid: true }),
    ]);
  });

  it('delivers signed DMs, mentions and replies that parse like the polled ones', async () => {
    const { account, username } = await connect('hooked');
    expect(await inbox().checkSubscription!(account)).toBe(false);
    await inbox().subscribe!(account);
    expect(await inbox().checkSubscription!(account)).toBe(true);
    await inbox().subscribe!(account); // subscribing twice is fine
    received.length = 0;

    const dm = await h.emu('POST', 'inbox/dm', {
      account: username,
      fromName: 'Webhook Wendy',
      text: 'Héllo 👋',
    });
    expect(dm.deliveries).toEqual([expect.objectContaining({ status: 200 })]);
    const mention = await h.emu('POST', 'inbox/mention', {
      account: username,
      fromName: 'Hook Mention',
      text: 'hi',
    });
    expect(mention.deliveries[0].status).toBe(200);

    expect(received.every((r) => r.verified)).toBe(true);
    const pushed = received.flatMap((r) => r.events);
    const polled = await inbox().poll(account, null);
    const strip = (e: AddressedInboxEvent['event']) => ({
      externalId: e.externalId,
      kind: e.kind,
      threadExternalId: e.threadExternalId,
      direction: e.direction,
      text: e.text,
      authorId: e.author.externalId,
      createdAt: Math.floor(e.createdAt.getTime() / 1000),
    });
    expect(pushed.map((p) => p.accountExternalId)).toEqual([
      account.externalId,
      account.externalId,
    ]);
    expect(pushed.map((p) => strip(p.event)).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual(
      polled.events.map(strip).sort((a, b) => a.kind.localeCompare(b.kind)),
    );

    // Our own DM comes back as dm.sent, outgoing, in the same conversation.
    received.length = 0;
    await inbox().sendDm!(account, dmThread(dm.senderId, account), 'Answer by DM');
    const echo = received.flatMap((r) => r.events)[0]!.event;
    expect(echo).toMatchObject({
      kind: 'dm',
      direction: 'out',
      threadExternalId: dm.conversationId,
      text: 'Answer by DM',
    });
    expect(echo.counterpart?.externalId).toBe(dm.senderId);
  });

  it('parses duplicate and out-of-order deliveries identically', async () => {
    const { account, username } = await connect('disorder');
    await inbox().subscribe!(account);
    received.length = 0;
    await h.setKnob(username, 'webhook_duplicate');
    const twice = await h.emu('POST', 'inbox/dm', {
      account: username,
      fromName: 'Dup Dan',
      text: 'once',
    });
    expect(twice.deliveries).toHaveLength(2);
    expect(received).toHaveLength(2);
    expect(received[0]!.events).toEqual(received[1]!.events);
    await h.setKnob(username, 'webhook_duplicate', false);

    received.length = 0;
    await h.setKnob(username, 'webhook_out_of_order');
    const a = await h.emu('POST', 'inbox/dm', {
      account: username,
      fromName: 'Dup Dan',
      text: 'first',
    });
    const b = await h.emu('POST', 'inbox/dm', {
      account: username,
      fromName: 'Dup Dan',
      text: 'second',
    });
    expect(received).toHaveLength(0);
    await h.setKnob(username, 'webhook_out_of_order', false);
    await h.emu('POST', 'inbox/flush');
    const order = received.flatMap((r) => r.events.map((e) => e.event));
    expect(order.map((e) => e.externalId)).toEqual([b.id, a.id]);
    expect(order[1]!.createdAt.getTime()).toBeLessThanOrEqual(order[0]!.createdAt.getTime());
  });

  it('refuses forged, unsigned and disabled deliveries', async () => {
    const { account, username } = await connect('forged');
    await inbox().subscribe!(account);
    received.length = 0;
    await h.setKnob(username, 'webhook_bad_signature');
    const forged = await h.emu('POST', 'inbox/dm', {
      account: username,
      fromName: 'Eve',
      text: 'trust me',
    });
    expect(forged.deliveries[0].status).toBe(403);
    expect(received).toEqual([{ verified: false, events: [] }]);
    await h.setKnob(username, 'webhook_bad_signature', false);

    const body = Buffer.from(JSON.stringify({ data: { event_type: 'dm.received' } }));
    expect(xWebhookReceiver.verify(body, {}, h.settings.clientSecret)).toBe(false);
    expect(
      xWebhookReceiver.verify(
        body,
        { 'x-twitter-webhooks-signature': 'sha256=AAAA' },
        h.settings.clientSecret,
      ),
    ).toBe(false);
    expect(xWebhookReceiver.handshake({}, { appSecret: 's', verifyToken: 'v' })).toBeNull();
    expect(() => xWebhookReceiver.parse(Buffer.from('{"nope":1}'))).toThrow();

    received.length = 0;
    await h.setKnob(username, 'webhook_disabled');
    const quiet = await h.emu('POST', 'inbox/dm', {
      account: username,
      fromName: 'Eve',
      text: 'anyone?',
    });
    expect(quiet.deliveries).toEqual([]);
    expect(received).toEqual([]);
    await h.setKnob(username, 'webhook_disabled', false);

    // X invalidates the webhook (a failed CRC): the check notices, ensure() re-validates it.
    await h.emu('POST', 'inbox/invalidate-webhook');
    expect(await inbox().checkSubscription!(account)).toBe(false);
    const lost = await h.emu('POST', 'inbox/dm', {
      account: username,
      fromName: 'Eve',
      text: 'lost',
    });
    expect(lost.deliveries).toEqual([]);
    await createXWebhookAdmin(h.settings).ensure(heraldUrl);
    expect(await inbox().checkSubscription!(account)).toBe(true);
    // Polling still finds what was not delivered (the safety net).
    const polled = await inbox().poll(account, null);
    expect(polled.events.map((e) => e.text)).toEqual(expect.arrayContaining(['anyone?', 'lost']));
  });
});
