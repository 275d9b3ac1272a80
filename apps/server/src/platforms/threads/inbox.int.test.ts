import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { inboxConversations, inboxMessages, organizations } from '../../db/schema.js';
import { upsertInboxEvents } from '../../modules/inbox/inbox-ingest.js';
import { seedAccount } from '../../test/inbox-fake.js';
import { startSandboxHarness } from '../../test/sandbox-harness.js';
import { useHarness } from '../../test/network-tests.js';
import type { AddressedInboxEvent, InboxAdapter, InboxThreadRef } from '../inbox-types.js';
import type { PublishRequest, StoredAccount } from '../types.js';
import { network } from './index.js';
import { threadsSignature, threadsWebhookReceiver } from './webhooks.js';

// The sandbox delivers to Herald's receiver only; the harness carries that to `herald` below.
const h = useHarness(() => startSandboxHarness(network, { heraldStandIn: () => heraldOrigin }));
const inbox = (): InboxAdapter => h.adapter.inbox!;
const VERIFY = 'herald-verify-token';
/** Herald's receiver as the sandbox knows it. */
const heraldUrl = () => `${h.heraldApi}/webhooks/threads`;

async function connect(name: string) {
  const { account } = await h.connectAs(name);
  const stored: StoredAccount = {
    externalId: account.externalId,
    tokens: account.tokens,
    extra: {},
    secrets: {},
  };
  return { account: stored, username: account.username! };
}

async function publish(account: StoredAccount, text: string) {
  const request: PublishRequest = { text, media: [], idempotencyKey: text };
  const publishing = h.adapter.publishing!;
  const state = await publishing.prepare(account, request);
  for (;;) {
    const checked = await publishing.check(account, state);
    if (checked.status === 'ready')
      return publishing.finalize(account, request, { ...state, ...checked.state });
    await new Promise((r) => setTimeout(r, 100));
  }
}

let herald: FastifyInstance;
let heraldOrigin = '';
const received: Array<{ verified: boolean; events: AddressedInboxEvent[] }> = [];

beforeAll(async () => {
  herald = Fastify({ logger: false });
  herald.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_r, body, done) =>
    done(null, body),
  );
  herald.get('/webhooks/threads', async (request, reply) => {
    const answer = threadsWebhookReceiver.handshake(request.query as Record<string, string>, {
      appSecret: h.settings.clientSecret,
      verifyToken: VERIFY,
    });
    if (!answer) return reply.status(403).send();
    if ('malformed' in answer) return reply.status(400).send();
    return reply.type(answer.contentType).send(answer.body);
  });
  herald.post('/webhooks/threads', async (request, reply) => {
    const raw = request.body as Buffer;
    const verified = threadsWebhookReceiver.verify(raw, request.headers, h.settings.clientSecret);
    // As Herald's route: a signed body of another kind is refused before it is read.
    if (verified && threadsWebhookReceiver.deliveryProblem(JSON.parse(raw.toString('utf8'))))
      return reply.status(400).send();
    received.push({ verified, events: verified ? threadsWebhookReceiver.parse(raw) : [] });
    return reply.status(verified ? 200 : 403).send();
  });
  heraldOrigin = await herald.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await herald.close();
});

describe('Threads inbox adapter against the Threads sandbox', () => {
  it('says plainly there are no DMs, and what it reads instead', async () => {
    const { account } = await connect('th_caps');
    expect(inbox().capabilities(account)).toMatchObject({
      dm: false,
      comments: true,
      mentions: true,
      hide: true,
      like: false,
      replyMaxLength: 500,
      limitation: expect.stringMatching(/no API for direct messages/),
    });
    expect(inbox().sendDm).toBeUndefined();
  });

  it('polls replies on our posts and mentions, then only what is new', async () => {
    const { account, username } = await connect('th_poll');
    const post = await publish(account, 'Threads launch');
    const reply = await h.emu('POST', 'inbox/reply', {
      postId: post.externalId,
      fromName: 'Rae Reply',
      text: 'So good',
    });
    const nested = await h.emu('POST', 'inbox/reply', {
      postId: reply.id,
      fromName: 'Ned Nested',
      text: 'Agreed',
    });
    const mention = await h.emu('POST', 'inbox/mention', {
      account: username,
      fromName: 'Mia Mention',
      text: 'see this',
    });

    const first = await inbox().poll(account, null);
    const byId = new Map(first.events.map((e) => [e.externalId, e]));
    expect(byId.size).toBe(3);
    expect(byId.get(reply.id)).toMatchObject({
      kind: 'comment',
      direction: 'in',
      threadExternalId: post.externalId,
      parentExternalId: null,
      text: 'So good',
      author: {
        username: reply.username,
        profileUrl: `https://www.threads.com/@${reply.username}`,
      },
      rootPost: { externalId: post.externalId, text: 'Threads launch' },
    });
    expect(byId.get(nested.id)).toMatchObject({
      threadExternalId: post.externalId,
      parentExternalId: reply.id,
    });
    expect(byId.get(mention.id)).toMatchObject({
      kind: 'mention',
      threadExternalId: mention.id,
      text: `@${username} see this`,
    });

    expect((await inbox().poll(account, first.cursor)).events).toEqual([]);
    // Connected before the inbox asked for mentions: replies still come, mentions wait.
    const older = { ...account, tokens: { ...account.tokens, scopes: ['threads_basic'] } };
    expect((await inbox().poll(older, null)).events.map((e) => e.kind).sort()).toEqual([
      'comment',
      'comment',
    ]);
    const later = await h.emu('POST', 'inbox/reply', {
      postId: post.externalId,
      fromName: 'Lou Later',
      text: 'Late reply',
    });
    const again = await inbox().poll(account, first.cursor);
    expect(again.events.map((e) => e.externalId)).toEqual([later.id]);
  });

  it('replies in the thread, finds the reply, and hides a top-level reply', async () => {
    const { account } = await connect('th_reply');
    const post = await publish(account, 'Ask me anything');
    const comment = await h.emu('POST', 'inbox/reply', {
      postId: post.externalId,
      fromName: 'Quinn Question',
      text: 'What time?',
    });
    const thread: InboxThreadRef = {
      kind: 'comments',
      threadExternalId: post.externalId,
      participantExternalId: comment.username,
      rootPostExternalId: post.externalId,
    };
    const since = new Date(Date.now() - 1000);
    const sent = await inbox().replyToComment!(account, thread, comment.id, 'Noon!');
    expect(await inbox().findSent!(account, thread, 'Noon!', since)).toMatchObject({
      externalId: sent.externalId,
    });
    expect(await inbox().findSent!(account, thread, 'Never said', since)).toBeNull();
    const polled = await inbox().poll(account, null);
    expect(polled.events.find((e) => e.externalId === sent.externalId)).toMatchObject({
      direction: 'out',
      parentExternalId: comment.id,
    });

    await inbox().hide!(account, comment.id, true);
    expect(await h.emu('GET', `inbox/media/${comment.id}`)).toMatchObject({ hidden: true });
    await inbox().hide!(account, comment.id, false);
    expect(await h.emu('GET', `inbox/media/${comment.id}`)).toMatchObject({ hidden: false });
  });
});

describe('Threads webhooks between the sandbox and the receiver', () => {
  it('validates the callback with the verify token and refuses a wrong one', async () => {
    expect(
      threadsWebhookReceiver.handshake(
        { 'hub.mode': 'subscribe', 'hub.challenge': '42', 'hub.verify_token': 'wrong' },
        { appSecret: 's', verifyToken: VERIFY },
      ),
    ).toBeNull();
    await expect(
      h.emu('POST', 'webhooks', { callbackUrl: heraldUrl(), verifyToken: 'wrong' }),
    ).rejects.toThrow(/400/);
    expect(
      await h.emu('POST', 'webhooks', { callbackUrl: heraldUrl(), verifyToken: VERIFY }),
    ).toEqual({ success: true });
  });

  it('delivers signed replies and mentions in the values envelope, duplicates parsing identically', async () => {
    const { account, username } = await connect('th_hooked');
    const post = await publish(account, 'Hooked post');
    received.length = 0;
    const reply = await h.emu('POST', 'inbox/reply', {
      postId: post.externalId,
      fromName: 'Hook Reply',
      text: 'Ça va? 🙂',
    });
    expect(reply.deliveries).toEqual([{ status: 200 }]);
    const pushed = received[0]!.events[0]!;
    expect(pushed).toMatchObject({
      platform: 'Threads',
      accountExternalId: account.externalId,
      event: {
        kind: 'comment',
        externalId: reply.id,
        threadExternalId: post.externalId,
        text: 'Ça va? 🙂',
        direction: 'in',
        parentExternalId: null,
      },
    });
    const polled = (await inbox().poll(account, null)).events.find(
      (e) => e.externalId === reply.id,
    )!;
    expect(pushed.event.createdAt.getTime()).toBe(polled.createdAt.getTime());
    expect(pushed.event.author).toEqual(
      expect.objectContaining({ username: polled.author.username }),
    );

    await h.setKnob(username, 'webhook_duplicate');
    received.length = 0;
    const mention = await h.emu('POST', 'inbox/mention', {
      account: username,
      fromName: 'Twice Told',
      text: 'hi',
    });
    expect(received).toHaveLength(2);
    expect(received[0]!.events).toEqual(received[1]!.events);
    expect(received[0]!.events[0]!.event).toMatchObject({
      kind: 'mention',
      externalId: mention.id,
    });
    await h.setKnob(username, 'webhook_duplicate', false);
  });

  it('holds deliveries out of order and flushes them newest first; ingestion still keeps the newest', async () => {
    const { account, username } = await connect('th_disorder');
    const post = await publish(account, 'Disorder post');
    await h.setKnob(username, 'webhook_out_of_order');
    received.length = 0;
    const reply = (fromName: string, text: string) =>
      h.emu('POST', 'inbox/reply', { postId: post.externalId, fromName, text });
    const older = await reply('Early Bird', 'First!');
    expect(older.deliveries).toEqual([{ status: 'held' }]);
    await h.advanceClock(60);
    const newer = await reply('Late Comer', 'Second');
    expect(received).toEqual([]);
    const flushed = await h.emu('POST', 'inbox/flush', {});
    expect(flushed.deliveries).toEqual([{ status: 200 }, { status: 200 }]);
    const events = received.flatMap((r) => r.events);
    expect(events.map((e) => e.event.externalId)).toEqual([newer.id, older.id]);
    expect((await h.emu('POST', 'inbox/flush', {})).deliveries).toEqual([]);
    await h.setKnob(username, 'webhook_out_of_order', false);

    // Stored in the order they arrived: the conversation still shows the newest reply.
    const [org] = await h.db.insert(organizations).values({ name: 'Disorder Co' }).returning();
    const integration = await seedAccount(h.db, org!.id, 'Threads', account.externalId);
    const target = { id: integration.id, organizationId: org!.id, platform: 'Threads' as const };
    for (const e of events) await upsertInboxEvents(h.db, target, [e.event]);
    const [conversation] = await h.db
      .select()
      .from(inboxConversations)
      .where(eq(inboxConversations.integrationId, integration.id));
    expect(conversation).toMatchObject({
      kind: 'comments',
      threadExternalId: post.externalId,
      lastMessagePreview: 'Second',
      unread: true,
    });
    expect(conversation!.lastMessageAt.getTime()).toBe(events[0]!.event.createdAt.getTime());
    const stored = await h.db
      .select({ externalId: inboxMessages.externalId })
      .from(inboxMessages)
      .where(eq(inboxMessages.conversationId, conversation!.id))
      .orderBy(inboxMessages.createdAt);
    expect(stored.map((m) => m.externalId)).toEqual([older.id, newer.id]);
  });

  it('refuses forged and unsigned deliveries', async () => {
    const { account, username } = await connect('th_forged');
    const post = await publish(account, 'Forged target');
    await h.setKnob(username, 'webhook_bad_signature');
    received.length = 0;
    const forged = await h.emu('POST', 'inbox/reply', {
      postId: post.externalId,
      fromName: 'Eve',
      text: 'trust me',
    });
    expect(forged.deliveries).toEqual([{ status: 403 }]);
    expect(received).toEqual([{ verified: false, events: [] }]);
    const body = Buffer.from('{"values":{}}');
    expect(threadsWebhookReceiver.verify(body, {}, 'secret')).toBe(false);
    expect(
      threadsWebhookReceiver.verify(
        body,
        { 'x-hub-signature-256': threadsSignature('secret', body) },
        'secret',
      ),
    ).toBe(true);
    expect(() => threadsWebhookReceiver.parse(Buffer.from('{"entry":[]}'))).toThrow();
  });
});
