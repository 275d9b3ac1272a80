import { setTimeout as sleep } from 'node:timers/promises';
import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxConversations, inboxMessages, inboxWebhookEvents } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { comment, deliver, dm, seedAccount, testReceiver } from '../../test/inbox-fake.js';
import { INBOX_WEBHOOK_QUEUE } from './inbox-queue.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    { jobs: 'all', queues: [INBOX_WEBHOOK_QUEUE], webhookReceivers: [testReceiver] },
  );
}, 60_000);
afterAll(() => t?.close());

/** Waits until the webhook job has processed every stored delivery. */
async function settled() {
  for (let i = 0; i < 100; i++) {
    const left = await t.database.db
      .select({ id: inboxWebhookEvents.id })
      .from(inboxWebhookEvents)
      .where(isNull(inboxWebhookEvents.processedAt));
    if (left.length === 0) return;
    await sleep(100);
  }
  throw new Error('The webhook job did not process the deliveries.');
}

const storedCount = async () => (await t.database.db.select().from(inboxWebhookEvents)).length;

describe('webhooks', () => {
  it('answers the verification handshake with the challenge, and refuses a wrong token', async () => {
    const token = t.runtime.inbox.metaVerifyToken!;
    expect(token).toBeTruthy();
    const good = await t.app.inject({
      method: 'GET',
      url: `/api/webhooks/meta?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=42abc`,
    });
    expect(good.statusCode).toBe(200);
    expect(good.body).toBe('42abc');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/webhooks/meta?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=42abc',
    });
    expect(bad.statusCode).toBe(403);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/webhooks/nobody' });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses forged and unsigned deliveries with 403 and stores nothing', async () => {
    const before = await storedCount();
    const events = [
      { account: 'page-forged', event: dm('m-forged', 'c1', '2026-01-01T10:00:00Z', 'hi') },
    ];
    const forged = await deliver(t, events, { secret: 'not-the-app-secret' });
    expect(forged.statusCode).toBe(403);
    const unsigned = await deliver(t, events, { signature: null });
    expect(unsigned.statusCode).toBe(403);
    // A signature over other bytes (a replayed signature with an altered body).
    const body = JSON.stringify({ events });
    const tampered = await deliver(t, events, {
      raw: body.replace('hi', 'ho'),
      signature: (await import('../../test/inbox-fake.js')).sign(
        t.networks.get('facebook')!.client.clientSecret,
        body,
      ),
    });
    expect(tampered.statusCode).toBe(403);
    expect(await storedCount()).toBe(before);
  });

  it('stores duplicates once, orders by the network time, edits in place, in every organization of the Page', async () => {
    const a = await createOrg(t.app, 'wh.a@example.com', 'Org A');
    const b = await createOrg(t.app, 'wh.b@example.com', 'Org B');
    const inA = await seedAccount(t.database.db, a.orgId, 'Facebook', 'page-shared');
    const inB = await seedAccount(t.database.db, b.orgId, 'Facebook', 'page-shared');
    const first = dm('m1', 'cust-1', '2026-03-01T10:00:00Z', 'Hello');
    const second = dm('m2', 'cust-1', '2026-03-01T10:05:00Z', 'Is my order shipped?');
    const edited = { ...second, text: 'Is my order #12 shipped?', edited: true };
    // Newest first, the first one twice, then the edit, then a late copy of the original.
    for (const event of [second, first, first, edited, second]) {
      const res = await deliver(t, [{ account: 'page-shared', event }]);
      expect(res.statusCode).toBe(200);
    }
    await settled();
    for (const integration of [inA, inB]) {
      const [conversation] = await t.database.db
        .select()
        .from(inboxConversations)
        .where(eq(inboxConversations.integrationId, integration.id));
      expect(conversation).toMatchObject({
        organizationId: integration.organizationId,
        lastMessagePreview: 'Is my order #12 shipped?',
        unread: true,
        status: 'open',
        title: 'Customer cust-1',
      });
      expect(conversation!.lastMessageAt.toISOString()).toBe('2026-03-01T10:05:00.000Z');
      expect(conversation!.lastInboundAt!.toISOString()).toBe('2026-03-01T10:05:00.000Z');
      const messages = await t.database.db
        .select()
        .from(inboxMessages)
        .where(eq(inboxMessages.conversationId, conversation!.id))
        .orderBy(inboxMessages.createdAt);
      expect(messages.map((m) => [m.externalId, m.text, m.edited])).toEqual([
        ['m1', 'Hello', false],
        ['m2', 'Is my order #12 shipped?', true],
      ]);
    }
  });

  it('marks an unsent message deleted and a hidden comment hidden, in place', async () => {
    const { orgId } = await createOrg(t.app, 'wh.c@example.com', 'Org C');
    const account = await seedAccount(t.database.db, orgId, 'Facebook', 'page-c');
    const c1 = comment('cm1', 'post-c', '2026-03-02T09:00:00Z', 'Nice!');
    await deliver(t, [{ account: 'page-c', event: c1 }]);
    await deliver(t, [{ account: 'page-c', event: { ...c1, text: '', deleted: true } }]);
    await deliver(t, [{ account: 'page-c', event: { ...c1, hidden: true } }]);
    await settled();
    const rows = await t.database.db
      .select()
      .from(inboxMessages)
      .innerJoin(inboxConversations, eq(inboxConversations.id, inboxMessages.conversationId))
      .where(eq(inboxConversations.integrationId, account.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.inbox_messages).toMatchObject({ text: 'Nice!', deleted: true, hidden: true });
    expect(rows[0]!.inbox_conversations).toMatchObject({
      kind: 'comments',
      rootPostExternalId: 'post-c',
    });
  });

  it('keeps a malformed delivery with its error, answers 200 and changes nothing else', async () => {
    const conversationsBefore = (await t.database.db.select().from(inboxConversations)).length;
    const res = await deliver(t, [], { raw: '{"object":"page","entry":"nonsense"' });
    expect(res.statusCode).toBe(200);
    await settled();
    const [stored] = await t.database.db
      .select()
      .from(inboxWebhookEvents)
      .orderBy(inboxWebhookEvents.receivedAt)
      .then((rows) => rows.slice(-1));
    expect(stored!.error).toMatch(/JSON|not a delivery/i);
    expect(stored!.body.toString('utf8')).toBe('{"object":"page","entry":"nonsense"');
    expect((await t.database.db.select().from(inboxConversations)).length).toBe(
      conversationsBefore,
    );
  });
});
