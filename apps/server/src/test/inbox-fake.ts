import { createHmac, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { InboxPerson } from '@herald/contract';
import { eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { inboxWebhookEvents, integrations, platforms } from '../db/schema.js';
import type {
  InboxAdapter,
  InboxCapabilities,
  InboxCursor,
  InboxMessageEvent,
  InboxPollResult,
  InboxReplyAttachment,
  InboxSendResult,
  InboxThreadRef,
  WebhookReceiver,
} from '../platforms/inbox-types.js';
import type { StoredAccount } from '../platforms/types.js';
import { answerHubChallenge } from '../platforms/webhook-handshake.js';
import type { TestApp } from './app.js';

/**
 * A network's inbox half as the inbox core sees it, scripted by the test: what a poll answers,
 * how a send ends, and a log of every call. The network adapters' own tests run against their
 * sandboxes; this one tests the core without any network.
 */
export class FakeInbox implements InboxAdapter {
  caps: InboxCapabilities = {
    dm: true,
    comments: true,
    mentions: false,
    privateReply: true,
    like: true,
    hide: true,
    deleteComment: true,
    block: false,
    dmWindowHours: 24,
    humanAgentWindowHours: null,
    replyMaxLength: 100,
    limitation: null,
    historyNote: 'Only the 20 newest messages of each conversation.',
    pollIntervalMinutes: 5,
  };
  polls: Array<InboxCursor | null> = [];
  /** How long a poll takes (to overlap two of them). */
  pollDelayMs = 0;
  pollAnswers: Array<InboxPollResult | Error> = [];
  sends: Array<{
    kind: string;
    text: string;
    thread?: InboxThreadRef;
    to?: string | null;
    attachments?: InboxReplyAttachment[];
  }> = [];
  /** How the next sends end: an id, or an error to throw. */
  sendOutcomes: Array<string | Error> = [];
  sendDelayMs = 0;
  findSentAnswer: InboxSendResult | null | Error = null;
  subscribed = true;
  subscribeCalls = 0;
  actions: string[] = [];
  private counter = 0;

  capabilities() {
    return this.caps;
  }
  async poll(_account: StoredAccount, cursor: InboxCursor | null) {
    this.polls.push(cursor);
    if (this.pollDelayMs) await sleep(this.pollDelayMs);
    const next = this.pollAnswers.shift();
    if (next instanceof Error) throw next;
    return next ?? { events: [], cursor: cursor ?? {} };
  }
  private async send(
    kind: string,
    text: string,
    thread?: InboxThreadRef,
    to?: string | null,
    attachments?: InboxReplyAttachment[],
  ) {
    this.sends.push({
      kind,
      text,
      ...(thread ? { thread } : {}),
      ...(to !== undefined ? { to } : {}),
      ...(attachments ? { attachments } : {}),
    });
    if (this.sendDelayMs) await sleep(this.sendDelayMs);
    const outcome = this.sendOutcomes.shift() ?? `sent-${++this.counter}`;
    if (outcome instanceof Error) throw outcome;
    return { externalId: outcome, createdAt: new Date() };
  }
  sendDm(_a: StoredAccount, thread: InboxThreadRef, text: string, files?: InboxReplyAttachment[]) {
    return this.send('dm', text, thread, undefined, files);
  }
  replyToComment(
    _a: StoredAccount,
    thread: InboxThreadRef,
    to: string | null,
    text: string,
    files?: InboxReplyAttachment[],
  ) {
    return this.send('comment', text, thread, to, files);
  }
  privateReply(_a: StoredAccount, commentId: string, text: string, files?: InboxReplyAttachment[]) {
    return this.send('private', text, undefined, commentId, files);
  }
  async findSent() {
    if (this.findSentAnswer instanceof Error) throw this.findSentAnswer;
    return this.findSentAnswer;
  }
  async like(_a: StoredAccount, id: string, liked: boolean) {
    this.actions.push(`like ${id} ${liked}`);
  }
  async hide(_a: StoredAccount, id: string, hidden: boolean) {
    this.actions.push(`hide ${id} ${hidden}`);
  }
  async deleteComment(_a: StoredAccount, id: string) {
    this.actions.push(`delete ${id}`);
  }
  async checkSubscription() {
    return this.subscribed;
  }
  async subscribe() {
    this.subscribeCalls++;
    this.subscribed = true;
  }
}

/** Puts `fake` in place of Facebook's inbox half for this app (adapters are read per call). */
export function useFakeInbox(t: TestApp, fake: FakeInbox, slug = 'facebook') {
  const network = t.networks.get(slug)!;
  network.adapter = { ...network.adapter, inbox: fake };
}

/** A connected account written straight into the database, with the network id the test needs. */
export async function seedAccount(
  db: Db,
  organizationId: string,
  platformName: string,
  externalId: string,
  name = 'Acme Page',
) {
  const [platform] = await db.select().from(platforms).where(eq(platforms.name, platformName));
  const [row] = await db
    .insert(integrations)
    .values({
      organizationId,
      platformId: platform!.id,
      platformAccountId: externalId,
      status: 'CONNECTED',
      name,
      sandbox: true,
    })
    .returning();
  return row!;
}

export const person = (id: string, name: string): InboxPerson => ({
  externalId: id,
  name,
  username: name.toLowerCase(),
  pictureUrl: null,
  profileUrl: `https://example.test/${id}`,
});

/** A customer's DM (or our echo with direction 'out'). */
export function dm(
  id: string,
  thread: string,
  at: string,
  text: string,
  extra: Partial<InboxMessageEvent> = {},
): InboxMessageEvent {
  return {
    type: 'message',
    kind: 'dm',
    externalId: id,
    threadExternalId: thread,
    direction: 'in',
    author: person(thread, `Customer ${thread}`),
    counterpart: person(thread, `Customer ${thread}`),
    text,
    createdAt: new Date(at),
    attachments: [],
    ...extra,
  };
}

export function comment(
  id: string,
  post: string,
  at: string,
  text: string,
  extra: Partial<InboxMessageEvent> = {},
): InboxMessageEvent {
  return {
    type: 'message',
    kind: 'comment',
    externalId: id,
    threadExternalId: post,
    direction: 'in',
    author: person(`u-${id}`, `Commenter ${id}`),
    text,
    createdAt: new Date(at),
    attachments: [],
    parentExternalId: null,
    rootPost: { externalId: post, permalink: `https://example.test/p/${post}`, text: 'Our post' },
    ...extra,
  };
}

/**
 * A webhook receiver for tests: HMAC-SHA256 over the raw body in `x-hub-signature-256`, Meta's
 * `hub.*` handshake, and a JSON body `{ events: [{ account, event }] }`.
 */
export const testReceiver: WebhookReceiver = {
  provider: 'meta',
  secretFrom: 'Facebook',
  usesVerifyToken: true,
  handshake: (query, { verifyToken }) => answerHubChallenge(query, verifyToken),
  verify(raw, headers, secret) {
    const given = headers['x-hub-signature-256'];
    if (typeof given !== 'string') return false;
    const expected = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
    return (
      given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected))
    );
  },
  deliveryProblem(body) {
    return typeof body === 'object' && body !== null && 'events' in body
      ? null
      : 'This is not a delivery of the test network: it has no events.';
  },
  parse(raw) {
    const body = JSON.parse(raw.toString('utf8')) as {
      events?: Array<{ account: string; event: InboxMessageEvent & { createdAt: string } }>;
    };
    if (!Array.isArray(body.events)) throw new Error('This is not a delivery of the test network.');
    return body.events.map(({ account, event }) => ({
      platform: 'Facebook' as const,
      accountExternalId: account,
      event: { ...event, createdAt: new Date(event.createdAt) },
    }));
  },
};

export const sign = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** POSTs a signed delivery to /api/webhooks/meta. */
export function deliver(
  t: TestApp,
  events: Array<{ account: string; event: InboxMessageEvent }>,
  opts: { secret?: string; raw?: string; signature?: string | null } = {},
) {
  const body = opts.raw ?? JSON.stringify({ events });
  const secret = opts.secret ?? t.networks.get('facebook')!.client.clientSecret;
  const signature = opts.signature === undefined ? sign(secret, body) : opts.signature;
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/meta',
    headers: {
      'content-type': 'application/json',
      ...(signature !== null ? { 'x-hub-signature-256': signature } : {}),
    },
    payload: body,
  });
}

/** Processes every stored delivery not processed yet (what the webhook job does). */
export async function processStoredWebhooks(t: TestApp) {
  const rows = await t.database.db
    .select({ id: inboxWebhookEvents.id })
    .from(inboxWebhookEvents)
    .where(isNull(inboxWebhookEvents.processedAt));
  await t.runtime.inbox.sync.processWebhooks(rows.map((r) => r.id));
}
