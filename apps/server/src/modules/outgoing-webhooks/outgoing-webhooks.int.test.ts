import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  integrations,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { dm } from '../../test/inbox-fake.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { upsertInboxEvents } from '../inbox/inbox-ingest.js';
import { outgoingWebhooksPruneJob } from '../../jobs/outgoing-webhooks-prune.job.js';
import { coalescingRunner, DeliveryNudges } from './delivery-nudge.js';
import { deliverDue, type DeliveryDeps } from './delivery.js';
import { redeliver } from './outgoing-webhooks.service.js';

/**
 * The receiver is a local server on loopback, allowed by the test-only MEDIA_IMPORT_ALLOW_PRIVATE
 * for its port alone. Each path answers as the test sets it and keeps what it was sent, raw.
 */
let t: TestApp;
let receiver: Server;
let port: number;
let owner: Actor;
let orgId: string;
let roleId: (name: string) => string;
let xId: string;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
const received = new Map<string, Received[]>();
const answers = new Map<
  string,
  { status: number; body: string; headers?: Record<string, string> }
>();

const DAY = 86_400_000;
const urlOf = (path: string) => `http://127.0.0.1:${port}${path}`;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.set(path, [...(received.get(path) ?? []), { headers: req.headers, body }]);
      const answer = answers.get(path) ?? { status: 200, body: 'ok' };
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
  t = await createTestApp({ MEDIA_IMPORT_ALLOW_PRIVATE: `127.0.0.1:${port}` });
  ({ owner, orgId, roleId } = await createOrg(t.app, 'hooks.owner@outgoing.test', 'Outgoing Co'));
  await connectThroughSandbox(t.app, owner, 'x', orgId);
  const supported = await owner.call('GET', '/api/platforms/supported');
  xId = supported.body.data.platforms.find((p: { name: string }) => p.name === 'X').id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** The delivery job's work, on a clock the test moves. */
const deliveryDeps = (now: Date): DeliveryDeps => ({
  db: t.database.db,
  cipher: t.cipher,
  allowPrivate: [`127.0.0.1:${port}`],
  log: t.app.log,
  now: () => now,
  disableAfterMs: 5 * DAY,
  // The middle of the jitter: each wait exactly the schedule's.
  random: () => 0.5,
});

const base = () => `/api/organizations/${orgId}/webhooks`;

async function createEndpoint(path: string, events: string[]) {
  const res = await owner.call('POST', base(), { url: urlOf(path), events });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { endpoint: { id: string }; secret: string };
}

/**
 * The receiver's own check, written here from the Standard Webhooks spec and not with Herald's
 * helper: HMAC-SHA256 keyed by the base64 bytes after `whsec_`, of `id.timestamp.body`, compared
 * in constant time with each `v1,` entry of the header.
 */
function verifies(secret: string, message: Received) {
  const id = message.headers['webhook-id'] as string;
  const timestamp = message.headers['webhook-timestamp'] as string;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${message.body}`).digest();
  return (message.headers['webhook-signature'] as string).split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

async function draftToX(content: string, actor = owner, fields: Record<string, string> = {}) {
  const body = await multipart({
    platformIds: JSON.stringify([xId]),
    content,
    action: 'draft',
    ...fields,
  });
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.post as { id: string };
}

const deliveriesOf = async (endpointId: string) =>
  (await owner.call('GET', `${base()}/${endpointId}/deliveries`)).body.data.deliveries as Array<{
    id: string;
    messageId: string;
    type: string;
    status: string;
    attemptCount: number;
    nextAttemptAt: string | null;
    attempts: Array<{
      statusCode: number | null;
      durationMs: number;
      responseExcerpt: string | null;
      error: string | null;
      succeeded: boolean;
    }>;
  }>;

describe('webhook endpoints', () => {
  it('answer the whsec_ signing secret once and keep it sealed', async () => {
    const { endpoint, secret } = await createEndpoint('/created', ['post.created']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64').length;
    expect(bytes).toBeGreaterThanOrEqual(24);
    expect(bytes).toBeLessThanOrEqual(32);
    const list = await owner.call('GET', base());
    expect(list.status).toBe(200);
    expect(list.body.data.endpoints.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));
    const [row] = await t.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(row!.secretSealed).not.toContain(secret.slice(6));
    expect(t.cipher.decrypt(row!.secretSealed)).toBe(secret);

    const changed = await owner.call('PATCH', `${base()}/${endpoint.id}`, {
      events: ['post.created', 'post.deleted'],
      description: 'Zapier',
    });
    expect(changed.body.data.endpoint).toMatchObject({
      events: ['post.created', 'post.deleted'],
      description: 'Zapier',
      enabled: true,
    });
    expect((await owner.call('DELETE', `${base()}/${endpoint.id}`)).status).toBe(200);
    expect((await owner.call('GET', `${base()}/${endpoint.id}/deliveries`)).status).toBe(404);
  });

  it('refuses private and local destinations, and unknown events, with a sentence', async () => {
    for (const url of [
      'https://10.0.0.5/hook',
      'https://127.0.0.1:9/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest',
    ]) {
      const res = await owner.call('POST', base(), { url, events: ['post.published'] });
      expect(res.status, url).toBe(400);
      expect(res.body.message).toContain('private or local address');
    }
    const local = await owner.call('POST', base(), {
      url: 'https://localhost/hook',
      events: ['post.published'],
    });
    expect(local.status).toBe(400);
    expect(local.body.message).toContain('points at this machine');

    const unknown = await owner.call('POST', base(), {
      url: 'https://hooks.example.com/in',
      events: ['post.published', 'post.exploded'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('Herald sends no event named "post.exploded"');
    expect((await owner.call('GET', base())).body.data.endpoints).toHaveLength(0);
  });
});

describe('deliveries', () => {
  it('sends a published post to the receiver, signed as Standard Webhooks says', async () => {
    const { endpoint, secret } = await createEndpoint('/published', ['post.published']);
    const post = await draftToX('Webhooks, meet the world');
    const published = await owner.call(
      'PATCH',
      `/api/organizations/${orgId}/post/${post.id}/publish`,
      {
        platforms: ['X'],
      },
    );
    expect(published.body.results.X.status).toBe('success');

    const now = new Date();
    await deliverDue(deliveryDeps(now));
    const got = received.get('/published') ?? [];
    expect(got).toHaveLength(1);
    const message = got[0]!;
    expect(verifies(secret, message)).toBe(true);
    expect(verifies('whsec_' + Buffer.alloc(24, 1).toString('base64'), message)).toBe(false);
    expect(message.headers['webhook-id']).toMatch(/^msg_[0-9a-f]+$/);
    expect(Number(message.headers['webhook-timestamp'])).toBe(Math.floor(now.getTime() / 1000));
    expect(message.headers['content-type']).toBe('application/json');
    const body = JSON.parse(message.body);
    expect(body).toMatchObject({
      type: 'post.published',
      data: { postId: post.id, targets: [{ platform: 'X', status: 'PUBLISHED' }] },
    });
    expect(Date.parse(body.timestamp)).not.toBeNaN();

    // Only what it subscribed to: the post's creation was not sent to it.
    const log = await deliveriesOf(endpoint.id);
    expect(log.map((d) => d.type)).toEqual(['post.published']);
    expect(log[0]).toMatchObject({ status: 'SUCCEEDED', attemptCount: 1, nextAttemptAt: null });
    expect(log[0]!.attempts[0]).toMatchObject({ statusCode: 200, responseExcerpt: 'ok' });
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });

  it('retries a failing receiver with backoff, logs each attempt, and turns it off after days', async () => {
    answers.set('/failing', { status: 500, body: 'x'.repeat(3000) });
    const { endpoint } = await createEndpoint('/failing', ['post.created']);
    const post = await draftToX('Nobody is listening');
    // The event was recorded at the app's time, just before this.
    const start = new Date();

    await deliverDue(deliveryDeps(start));
    let [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ type: 'post.created', status: 'PENDING', attemptCount: 1 });
    expect(Date.parse(delivery!.nextAttemptAt!)).toBe(start.getTime() + 5_000);
    expect(delivery!.attempts[0]).toMatchObject({
      statusCode: 500,
      succeeded: false,
      error: 'The endpoint answered HTTP 500.',
    });
    expect(delivery!.attempts[0]!.responseExcerpt).toHaveLength(1024);
    expect(delivery!.attempts[0]!.durationMs).toBeGreaterThanOrEqual(0);

    // Not before its time; then the next wait is longer.
    await deliverDue(deliveryDeps(new Date(start.getTime() + 4_000)));
    expect((await deliveriesOf(endpoint.id))[0]!.attemptCount).toBe(1);
    const second = new Date(start.getTime() + 5_000);
    await deliverDue(deliveryDeps(second));
    [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery!.attemptCount).toBe(2);
    expect(Date.parse(delivery!.nextAttemptAt!)).toBe(second.getTime() + 300_000);
    const sent = received.get('/failing')!;
    expect(sent).toHaveLength(2);
    // The same event on every attempt: same id and bytes, each attempt its own timestamp.
    expect(sent[1]!.headers['webhook-id']).toBe(sent[0]!.headers['webhook-id']);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(JSON.parse(sent[0]!.body).data.postId).toBe(post.id);
    expect(Number(sent[1]!.headers['webhook-timestamp'])).toBe(
      Number(sent[0]!.headers['webhook-timestamp']) + 5,
    );

    // Four days of failures: still on.
    await deliverDue(deliveryDeps(new Date(start.getTime() + 4 * DAY)));
    let [row] = await owner.call('GET', base()).then((r) => r.body.data.endpoints);
    expect(row).toMatchObject({ enabled: true, failingSince: start.toISOString() });

    // Five: turned off, its waiting deliveries given up, the Admins told.
    await deliverDue(deliveryDeps(new Date(start.getTime() + 5 * DAY + 1000)));
    [row] = await owner.call('GET', base()).then((r) => r.body.data.endpoints);
    expect(row.enabled).toBe(false);
    expect(row.disabledReason).toContain('every delivery has failed for 5 days');
    [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: 'FAILED', attemptCount: 4, nextAttemptAt: null });
    const notes = (await owner.call('GET', `/api/notifications?organizationId=${orgId}`)).body;
    expect(
      notes.some(
        (n: { type: string; message: string }) =>
          n.type === 'WEBHOOK_DISABLED' && n.message.includes(urlOf('/failing')),
      ),
    ).toBe(true);
    // A turned-off endpoint gets nothing more.
    await draftToX('Still nobody');
    await deliverDue(deliveryDeps(new Date(start.getTime() + 6 * DAY)));
    expect(received.get('/failing')).toHaveLength(4);
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });

  it('turns an endpoint off at once when it answers 410 Gone', async () => {
    answers.set('/gone', { status: 410, body: 'no longer here' });
    const { endpoint } = await createEndpoint('/gone', ['post.created']);
    await draftToX('Anyone there?');
    await deliverDue(deliveryDeps(new Date(Date.now() + 1000)));
    const [row] = (await owner.call('GET', base())).body.data.endpoints;
    expect(row).toMatchObject({ id: endpoint.id, enabled: false });
    expect(row.disabledReason).toContain('410 Gone');
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: 'FAILED', nextAttemptAt: null });
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });

  it('redelivers one delivery with the same id and bytes', async () => {
    answers.set('/flaky', { status: 503, body: 'down' });
    const { endpoint, secret } = await createEndpoint('/flaky', ['post.deleted']);
    const post = await draftToX('Short-lived');
    expect(
      (await owner.call('DELETE', `/api/organizations/${orgId}/posts/${post.id}`)).status,
    ).toBe(200);
    await deliverDue(deliveryDeps(new Date()));
    const [failed] = await deliveriesOf(endpoint.id);
    expect(failed).toMatchObject({ type: 'post.deleted', status: 'PENDING', attemptCount: 1 });

    answers.set('/flaky', { status: 204, body: '' });
    const again = await owner.call(
      'POST',
      `${base()}/${endpoint.id}/deliveries/${failed!.id}/redeliver`,
    );
    expect(again.status).toBe(200);
    expect(again.body.data.delivery).toMatchObject({
      id: failed!.id,
      status: 'SUCCEEDED',
      attemptCount: 2,
      nextAttemptAt: null,
    });
    expect(
      again.body.data.delivery.attempts.map((a: { statusCode: number }) => a.statusCode),
    ).toEqual([503, 204]);
    const [first, second] = received.get('/flaky')!;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    expect(verifies(secret, second!)).toBe(true);
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const { endpoint, secret: old } = await createEndpoint('/rotated', ['post.created']);
    const rotated = await owner.call('POST', `${base()}/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    const until = Date.parse(rotated.body.data.endpoint.previousSecretExpiresAt);
    expect(Math.abs(until - (Date.now() + DAY))).toBeLessThan(60_000);

    const test = await owner.call('POST', `${base()}/${endpoint.id}/test`);
    expect(test.status).toBe(200);
    expect(test.body.data.delivery).toMatchObject({ type: 'webhook.test', status: 'SUCCEEDED' });
    const [message] = received.get('/rotated')!;
    expect((message!.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verifies(old, message!)).toBe(true);
    expect(verifies(fresh, message!)).toBe(true);
    expect(JSON.parse(message!.body).type).toBe('webhook.test');

    // A day later the old secret signs no more.
    const deps = {
      ...deliveryDeps(new Date(Date.now() + DAY + 60_000)),
      requireHttps: false,
    };
    await redeliver(deps, orgId, endpoint.id, test.body.data.delivery.id);
    const later = received.get('/rotated')![1]!;
    expect((later.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(verifies(fresh, later)).toBe(true);
    expect(verifies(old, later)).toBe(false);
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });
});

describe('events', () => {
  /** The types and payloads the receiver at `path` got, in order. */
  const bodiesAt = (path: string) =>
    (received.get(path) ?? []).map((m) => JSON.parse(m.body) as { type: string; data: any });

  it("tell a post's life: created, scheduled and updated, deleted", async () => {
    const { endpoint } = await createEndpoint('/lifecycle', [
      'post.created',
      'post.updated',
      'post.scheduled',
      'post.deleted',
    ]);
    const post = await draftToX('From draft to nothing');
    const at = new Date(Date.now() + 7 * DAY).toISOString();
    const moved = await owner.call('PUT', `/api/organizations/${orgId}/posts/${post.id}`, {
      scheduledAt: at,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await owner.call('DELETE', `/api/organizations/${orgId}/posts/${post.id}`);
    await deliverDue(deliveryDeps(new Date(Date.now() + 1000)));
    // Oldest first; the two of one change (one transaction) in either order.
    const bodies = bodiesAt('/lifecycle');
    const types = bodies.map((b) => b.type);
    expect(types[0]).toBe('post.created');
    expect(types.slice(1, 3).sort()).toEqual(['post.scheduled', 'post.updated']);
    expect(types[3]).toBe('post.deleted');
    const data = (type: string) => bodies.find((b) => b.type === type)!.data;
    expect(data('post.created')).toEqual({ postId: post.id, status: 'draft', scheduledAt: null });
    expect(data('post.scheduled')).toEqual({ postId: post.id, scheduledAt: at });
    expect(data('post.updated')).toEqual({ postId: post.id, status: 'scheduled', scheduledAt: at });
    expect(data('post.deleted')).toEqual({ postId: post.id });
    // Each event its own id.
    expect(
      new Set((received.get('/lifecycle') ?? []).map((m) => m.headers['webhook-id'])).size,
    ).toBe(4);
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });

  it('tell approvals: requested, approved, rejected with the reason', async () => {
    const { endpoint } = await createEndpoint('/approvals', [
      'approval.requested',
      'approval.approved',
      'approval.rejected',
    ]);
    expect(
      (await owner.call('PATCH', `/api/organizations/${orgId}`, { requirePostApproval: true }))
        .status,
    ).toBe(200);
    const creator = (
      await addMember(t.app, owner, orgId, 'hooks.creator@outgoing.test', {
        roleId: roleId('ContentCreator'),
      })
    ).actor;
    const later = new Date(Date.now() + 2 * DAY).toISOString();
    const first = await draftToX('Approve me', creator, { action: 'schedule', scheduledAt: later });
    const second = await draftToX('Reject me', creator, { action: 'schedule', scheduledAt: later });
    const approvals = `/api/organizations/${orgId}/approvals`;
    expect((await owner.call('POST', `${approvals}/${first.id}/approve`, {})).status).toBe(200);
    const rejected = await owner.call('POST', `${approvals}/${second.id}/reject`, {
      reason: 'Wrong hashtag',
    });
    expect(rejected.status).toBe(200);
    await owner.call('PATCH', `/api/organizations/${orgId}`, { requirePostApproval: false });
    await deliverDue(deliveryDeps(new Date(Date.now() + 1000)));
    const bodies = bodiesAt('/approvals');
    expect(bodies.map((b) => [b.type, b.data.postId])).toEqual([
      ['approval.requested', first.id],
      ['approval.requested', second.id],
      ['approval.approved', first.id],
      ['approval.rejected', second.id],
    ]);
    expect(bodies[0]!.data.userId).toBe(creator.userId);
    expect(bodies[2]!.data.userId).toBe(owner.userId);
    expect(bodies[3]!.data.reason).toBe('Wrong hashtag');
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });

  it('tell a new inbound message once, and an assignment', async () => {
    const { endpoint } = await createEndpoint('/inbox', [
      'inbox.message.received',
      'inbox.conversation.assigned',
    ]);
    const accounts = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
      .platforms as Array<{ id: string }>;
    const account = { id: accounts[0]!.id, organizationId: orgId, platform: 'X' };
    const at = new Date(Date.now() - 60_000).toISOString();
    await upsertInboxEvents(t.database.db, account, [dm('m1', 'sam', at, 'Open on Sunday?')]);
    // The same message again (a retry, a polling overlap) is no new message.
    await upsertInboxEvents(t.database.db, account, [dm('m1', 'sam', at, 'Open on Sunday?')]);
    const list = await owner.call('GET', `/api/organizations/${orgId}/inbox/conversations`);
    const conversationId = list.body.data.conversations[0].id as string;
    const assigned = await owner.call(
      'PATCH',
      `/api/organizations/${orgId}/inbox/conversations/${conversationId}`,
      { assigneeId: owner.userId },
    );
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    await deliverDue(deliveryDeps(new Date(Date.now() + 1000)));
    const bodies = bodiesAt('/inbox');
    expect(bodies.map((b) => b.type)).toEqual([
      'inbox.message.received',
      'inbox.conversation.assigned',
    ]);
    expect(bodies[0]!.data).toMatchObject({
      conversationId,
      integrationId: account.id,
      messages: [{ externalId: 'm1' }],
    });
    expect(bodies[1]!.data).toEqual({
      conversationId,
      assigneeUserId: owner.userId,
      assignedByUserId: owner.userId,
    });
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });

  it('tell an account whose token the network refused that it needs reconnecting', async () => {
    const { endpoint } = await createEndpoint('/reconnect', ['account.needs_reconnect']);
    const [x] = await t.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.organizationId, orgId));
    const knob = async (on: boolean) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sandbox/x/_emu/scenario',
        headers: { cookie: owner.jar.header() },
        payload: { account: x!.platformAccountId, knob: 'refresh_fails', on },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await knob(true);
    try {
      const refreshed = await owner.call(
        'GET',
        `/api/auth/x/refresh?orgId=${orgId}&integrationId=${x!.id}`,
      );
      expect(refreshed.status).toBeLessThan(500);
    } finally {
      await knob(false);
    }
    await deliverDue(deliveryDeps(new Date(Date.now() + 1000)));
    const bodies = bodiesAt('/reconnect');
    expect(bodies.map((b) => b.type)).toEqual(['account.needs_reconnect']);
    expect(bodies[0]!.data).toMatchObject({ integrationId: x!.id, platform: 'X' });
    expect(bodies[0]!.data.reason).toEqual(expect.any(String));
    await connectThroughSandbox(t.app, owner, 'x', orgId);
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });

  it('tell an account disconnected and connected again', async () => {
    const { endpoint } = await createEndpoint('/accounts', [
      'account.connected',
      'account.disconnected',
    ]);
    expect((await owner.call('POST', `/api/x/disconnect/${orgId}`)).status).toBe(200);
    await connectThroughSandbox(t.app, owner, 'x', orgId);
    await deliverDue(deliveryDeps(new Date(Date.now() + 1000)));
    const bodies = bodiesAt('/accounts');
    expect(bodies.map((b) => b.type)).toEqual(['account.disconnected', 'account.connected']);
    expect(bodies[0]!.data).toMatchObject({ platform: 'X' });
    expect(bodies[1]!.data).toMatchObject({ platform: 'X', reconnected: false });
    expect(bodies[1]!.data.integrationId).toEqual(expect.any(String));
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });
});

describe('retries that follow the receiver', () => {
  it('waits as long as a 429 or 503 asks with Retry-After, within the schedule’s bounds', async () => {
    const { endpoint } = await createEndpoint('/busy', ['post.created']);
    const start = new Date(Date.now() + 1000);
    const waitAfter = async (status: number, retryAfter: string) => {
      answers.set('/busy', { status, body: 'busy', headers: { 'retry-after': retryAfter } });
      await draftToX(`Busy ${status} ${retryAfter}`);
      await deliverDue(deliveryDeps(start));
      const delivery = (await deliveriesOf(endpoint.id)).find(
        (d) => d.attemptCount === 1 && d.status === 'PENDING',
      );
      expect(delivery, `${status} ${retryAfter}`).toBeDefined();
      // Settled: the next one's first attempt is not confused with this one.
      await t.database.db
        .update(webhookDeliveries)
        .set({ status: 'FAILED', nextAttemptAt: null })
        .where(eq(webhookDeliveries.id, delivery!.id));
      return (Date.parse(delivery!.nextAttemptAt!) - start.getTime()) / 1000;
    };
    // Seconds, and an HTTP date.
    expect(await waitAfter(429, '120')).toBe(120);
    expect(await waitAfter(503, new Date(start.getTime() + 3600_000).toUTCString())).toBe(3600);
    // Kept within the schedule: at least its first wait, at most its longest.
    expect(await waitAfter(429, '1')).toBe(5);
    expect(await waitAfter(503, String(30 * 86_400))).toBe(24 * 3600);
    // Another failure's Retry-After is not a receiver asking for time: the schedule applies.
    expect(await waitAfter(500, '120')).toBe(5);
    answers.delete('/busy');
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });
});

describe('prompt delivery', () => {
  it('claims a delivery once: concurrent runs send it a single time', async () => {
    const { endpoint } = await createEndpoint('/once', ['post.created']);
    await draftToX('Exactly one attempt');
    const at = new Date(Date.now() + 1000);
    const runs = await Promise.all([1, 2, 3, 4].map(() => deliverDue(deliveryDeps(at))));
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(received.get('/once')).toHaveLength(1);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attemptCount: 1 });
    expect(delivery!.attempts).toHaveLength(1);
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });

  it('sends a new event as soon as its change commits, without the minute job', async () => {
    const { endpoint } = await createEndpoint('/prompt', ['post.created']);
    // Only the nudge sends here: this app runs no job at all.
    const deliver = coalescingRunner(
      () => deliverDue({ ...deliveryDeps(new Date()), now: () => new Date() }),
      t.app.log,
    );
    const nudges = new DeliveryNudges(t.database, () => deliver.nudge(), t.app.log);
    await nudges.start();
    try {
      await deliver.idle();
      expect(received.get('/prompt')).toBeUndefined();
      const post = await draftToX('Told at once');
      await expect.poll(() => received.get('/prompt')?.length ?? 0, { timeout: 30_000 }).toBe(1);
      expect(JSON.parse(received.get('/prompt')![0]!.body).data.postId).toBe(post.id);
    } finally {
      await nudges.stop();
      await deliver.idle();
    }
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });
});

describe('retention', () => {
  it('deletes deliveries and their attempts older than the retention, daily', async () => {
    const { endpoint } = await createEndpoint('/kept', ['post.created']);
    await draftToX('Old news');
    await deliverDue(deliveryDeps(new Date(Date.now() + 1000)));
    const [old] = await deliveriesOf(endpoint.id);
    await t.database.db
      .update(webhookDeliveries)
      .set({ createdAt: new Date(Date.now() - 31 * DAY) })
      .where(eq(webhookDeliveries.id, old!.id));
    await draftToX('Fresh news');
    const job = outgoingWebhooksPruneJob(t.database.db, 30 * DAY, t.app.log);
    expect(job.cron).toMatch(/^\d+ \d+ \* \* \*$/);
    await job.handle([]);
    const left = await deliveriesOf(endpoint.id);
    expect(left).toHaveLength(1);
    expect(left[0]!.id).not.toBe(old!.id);
    const attempts = await t.database.db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, old!.id));
    expect(attempts).toEqual([]);
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });
});

describe('organization scoping', () => {
  it("never shows one organization's endpoints or deliveries to another", async () => {
    const { endpoint } = await createEndpoint('/scoped', ['post.created']);
    await owner.call('POST', `${base()}/${endpoint.id}/test`);
    const other = await createOrg(t.app, 'hooks.other@outgoing.test', 'Other Co');
    const theirs = `/api/organizations/${other.orgId}/webhooks`;
    // Through the other organization's own path: the endpoint is not theirs.
    expect((await other.owner.call('GET', `${theirs}/${endpoint.id}/deliveries`)).status).toBe(404);
    expect((await other.owner.call('POST', `${theirs}/${endpoint.id}/test`)).status).toBe(404);
    expect((await other.owner.call('DELETE', `${theirs}/${endpoint.id}`)).status).toBe(404);
    expect((await other.owner.call('GET', theirs)).body.data.endpoints).toEqual([]);
    // Through this organization's path: not a member.
    expect((await other.owner.call('GET', `${base()}/${endpoint.id}/deliveries`)).status).toBe(403);
    // Nothing of theirs is sent to this organization's endpoint.
    const rows = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.organizationId, other.orgId));
    expect(rows).toEqual([]);
    await owner.call('DELETE', `${base()}/${endpoint.id}`);
  });
});
