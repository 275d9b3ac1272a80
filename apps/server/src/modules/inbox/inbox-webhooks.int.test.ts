import { setTimeout as sleep } from 'node:timers/promises';
import { eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxConversations, inboxMessages, inboxWebhookEvents } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { comment, deliver, dm, person, seedAccount, testReceiver } from '../../test/inbox-fake.js';
import { INBOX_WEBHOOK_QUEUE } from './inbox-queue.js';
import { isTransient } from './inbox-sync.js';

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

  it('stores the good deliveries of a batch one bad event spoiled; only the bad one keeps an error', async () => {
    const { orgId } = await createOrg(t.app, 'wh.d@example.com', 'Org D');
    const account = await seedAccount(t.database.db, orgId, 'Facebook', 'page-d');
    const delivery = (event: ReturnType<typeof dm>) =>
      Buffer.from(JSON.stringify({ events: [{ account: 'page-d', event }] }));
    const bodies = [
      delivery(dm('d1', 'dana', '2026-03-03T09:00:00Z', 'First')),
      // PostgreSQL text holds no NUL: it is dropped, the rest is stored.
      delivery(
        dm('d2', 'dave', '2026-03-03T09:01:00Z', 'Hel\u0000lo', {
          author: { ...person('dave', 'Da\u0000ve'), pictureUrl: null },
        }),
      ),
      delivery(dm('d3', 'dora', '2026-03-03T09:02:00Z', 'Third')),
      // A time nobody can store: this delivery alone fails.
      delivery({ ...dm('d4', 'dirk', '2026-03-03T09:03:00Z', 'Bad'), createdAt: 'never' as never }),
      delivery(dm('d5', 'dana', '2026-03-03T09:04:00Z', 'Fifth')),
    ];
    // Stored unprocessed and read as one batch, as a burst of deliveries is.
    const rows = await t.database.db
      .insert(inboxWebhookEvents)
      .values(bodies.map((body) => ({ provider: 'meta', body })))
      .returning({ id: inboxWebhookEvents.id });
    await t.runtime.inbox.sync.processWebhooks(rows.map((r) => r.id));
    await settled();
    const stored = await t.database.db
      .select()
      .from(inboxMessages)
      .innerJoin(inboxConversations, eq(inboxConversations.id, inboxMessages.conversationId))
      .where(eq(inboxConversations.integrationId, account.id))
      .orderBy(inboxMessages.createdAt);
    expect(stored.map((r) => [r.inbox_messages.externalId, r.inbox_messages.text])).toEqual([
      ['d1', 'First'],
      ['d2', 'Hello'],
      ['d3', 'Third'],
      ['d5', 'Fifth'],
    ]);
    expect(stored[1]!.inbox_messages.author).toMatchObject({ name: 'Dave' });
    const deliveries = await t.database.db
      .select()
      .from(inboxWebhookEvents)
      .where(
        inArray(
          inboxWebhookEvents.id,
          rows.map((r) => r.id),
        ),
      );
    const errorOf = (i: number) => deliveries.find((d) => d.id === rows[i]!.id)!;
    for (const i of [0, 1, 2, 4]) expect(errorOf(i)).toMatchObject({ error: null });
    expect(errorOf(3).error).toMatch(/^Not stored: /);
    expect(deliveries.every((d) => d.processedAt !== null)).toBe(true);
  });

  it('leaves a delivery a deadlock held back unprocessed, to be read again, and stores the rest', async () => {
    const { orgId } = await createOrg(t.app, 'wh.e@example.com', 'Org E');
    const account = await seedAccount(t.database.db, orgId, 'Facebook', 'page-e');
    // PostgreSQL reports a deadlock for one message, as a concurrent writer could cause.
    await t.database.db.execute(sql`
      create function test_deadlock() returns trigger language plpgsql as $$
      begin
        if new.text = 'Deadlocked' then raise exception 'deadlock detected' using errcode = '40P01'; end if;
        return new;
      end $$`);
    await t.database.db.execute(
      sql`create trigger test_deadlock before insert on inbox_messages for each row execute function test_deadlock()`,
    );
    const delivery = (event: ReturnType<typeof dm>) => ({
      provider: 'meta',
      body: Buffer.from(JSON.stringify({ events: [{ account: 'page-e', event }] })),
    });
    const rows = await t.database.db
      .insert(inboxWebhookEvents)
      .values([
        delivery(dm('e1', 'emma', '2026-03-04T09:00:00Z', 'Fine')),
        delivery(dm('e2', 'eric', '2026-03-04T09:01:00Z', 'Deadlocked')),
      ])
      .returning({ id: inboxWebhookEvents.id });
    const ids = rows.map((r) => r.id);
    const sync = t.runtime.inbox.sync;
    const texts = async () =>
      (
        await t.database.db
          .select({ text: inboxMessages.text })
          .from(inboxMessages)
          .innerJoin(inboxConversations, eq(inboxConversations.id, inboxMessages.conversationId))
          .where(eq(inboxConversations.integrationId, account.id))
          .orderBy(inboxMessages.createdAt)
      ).map((r) => r.text);
    try {
      await sync.processWebhooks(ids);
      expect(await texts()).toEqual(['Fine']);
      const [held] = await t.database.db
        .select()
        .from(inboxWebhookEvents)
        .where(eq(inboxWebhookEvents.id, ids[1]!));
      expect(held).toMatchObject({ processedAt: null, error: null });
    } finally {
      await t.database.db.execute(sql`drop trigger test_deadlock on inbox_messages`);
      await t.database.db.execute(sql`drop function test_deadlock()`);
    }
    // Once its claim lapsed, the job reads it again and stores it.
    await t.database.db
      .update(inboxWebhookEvents)
      .set({ claimedUntil: null })
      .where(eq(inboxWebhookEvents.id, ids[1]!));
    await sync.processWebhooks(ids);
    expect(await texts()).toEqual(['Fine', 'Deadlocked']);
  });

  it('leaves a delivery a deadlock or a lost connection held back to be read again', () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    expect(isTransient(new Error('Failed query: insert …', { cause: deadlock }))).toBe(true);
    expect(isTransient(Object.assign(new Error('x'), { code: '40001' }))).toBe(true);
    expect(isTransient(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransient(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true);
    const nul = Object.assign(new Error('invalid byte sequence'), { code: '22021' });
    expect(isTransient(new Error('Failed query', { cause: nul }))).toBe(false);
    expect(isTransient(new RangeError('Invalid time value'))).toBe(false);
  });

  it('refuses a signed body that is not JSON with 400 and stores nothing', async () => {
    const before = await storedCount();
    const res = await deliver(t, [], { raw: '{"object":"page","entry":"nonsense"' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The webhook body is not JSON.',
    });
    expect(await storedCount()).toBe(before);
  });

  it('keeps a malformed delivery with its error, answers 200 and changes nothing else', async () => {
    const conversationsBefore = (await t.database.db.select().from(inboxConversations)).length;
    // The receiver's own kind of body (it has events), whose events cannot be read.
    const res = await deliver(t, [], { raw: '{"events":"nonsense"}' });
    expect(res.statusCode).toBe(200);
    await settled();
    const [stored] = await t.database.db
      .select()
      .from(inboxWebhookEvents)
      .orderBy(inboxWebhookEvents.receivedAt)
      .then((rows) => rows.slice(-1));
    expect(stored!.error).toMatch(/JSON|not a delivery/i);
    expect(stored!.body.toString('utf8')).toBe('{"events":"nonsense"}');
    expect((await t.database.db.select().from(inboxConversations)).length).toBe(
      conversationsBefore,
    );
  });
});
