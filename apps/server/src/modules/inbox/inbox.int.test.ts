import { ORG_ROUTE_PERMISSIONS } from '@herald/contract';
import { eq } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inboxConversations, inboxMessages, notifications } from '../../db/schema.js';
import { PlatformError } from '../../platforms/errors.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { listeningUrl, openStream, within } from '../../test/event-stream.js';
import { type Actor, addMember, createOrg } from '../../test/factories.js';
import {
  comment,
  dm,
  FakeInbox,
  person,
  seedAccount,
  useFakeInbox,
} from '../../test/inbox-fake.js';
import { insertNotificationsFor } from '../notifications/notifications.repository.js';
import { upsertInboxEvents } from './inbox-ingest.js';

let t: TestApp;
let fake: FakeInbox;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());
beforeEach(() => {
  fake = new FakeInbox();
  useFakeInbox(t, fake);
});

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
let n = 0;

/** An organization with a connected Page, a support teammate and a viewer. */
async function setup() {
  n++;
  const org = await createOrg(t.app, `owner${n}@example.com`, `Inbox ${n}`);
  const account = await seedAccount(t.database.db, org.orgId, 'Facebook', `page-${n}`);
  const ingest = (events: Parameters<typeof upsertInboxEvents>[2]) =>
    upsertInboxEvents(
      t.database.db,
      { id: account.id, organizationId: org.orgId, platform: 'Facebook' },
      events,
    );
  const api = (suffix: string) => `/api/organizations/${org.orgId}/inbox${suffix}`;
  return { ...org, account, ingest, api };
}

async function firstConversation(actor: Actor, api: (s: string) => string, query = '') {
  const res = await actor.call('GET', api(`/conversations${query}`));
  expect(res.status).toBe(200);
  return res.body.data.conversations[0];
}

describe('inbox API', () => {
  it('declares every inbox route: reading with dm:view, everything else with dm:send', () => {
    const inboxRoutes = Object.entries(ORG_ROUTE_PERMISSIONS).filter(([r]) => r.includes('/inbox'));
    expect(inboxRoutes.length).toBeGreaterThanOrEqual(18);
    for (const [route, { needs }] of inboxRoutes) {
      expect(needs).toBe(route.startsWith('GET ') ? 'dm:view' : 'dm:send');
      expect(t.orgRoutes.has(route)).toBe(true);
    }
  });

  it('lists, filters and counts unread; Done clears and a new message reopens', async () => {
    const { owner, api, ingest, orgId } = await setup();
    await ingest([dm('a1', 'alice', ago(30), 'Hi from Alice')]);
    await ingest([dm('b1', 'bob', ago(20), 'Hi from Bob')]);
    await ingest([dm('o1', 'bob', ago(10), 'Our answer', { direction: 'out' })]);
    const list = await owner.call('GET', api('/conversations'));
    expect(list.body.data.conversations.map((c: { title: string }) => c.title)).toEqual([
      'Customer bob',
      'Customer alice',
    ]);
    const bob = list.body.data.conversations[0];
    expect(bob).toMatchObject({
      platform: 'Facebook',
      kind: 'dm',
      unread: true,
      lastMessage: { text: 'Our answer', direction: 'out' },
      window: { open: true },
      capabilities: { reply: true, privateReply: false, replyMaxLength: 100 },
    });
    let summary = await owner.call('GET', api('/summary'));
    expect(summary.body.data.unreadCount).toBe(2);
    expect(summary.body.data.accounts[0]).toMatchObject({
      platform: 'Facebook',
      dm: true,
      historyNote: 'Only the 20 newest messages of each conversation.',
    });
    const dashboard = await owner.call('GET', `/api/organizations/${orgId}/dashboard`);
    expect(dashboard.body.data.unreadMessages).toBe(2);

    // Read one, label the other, and filter: unread + label + network.
    await owner.call('PATCH', api(`/conversations/${bob.id}`), { unread: false });
    const alice = list.body.data.conversations[1];
    expect(
      (await owner.call('PATCH', api(`/conversations/${alice.id}`), { labels: ['Question'] })).body
        .data.conversation.labels,
    ).toEqual(['question']);
    const filtered = await owner.call(
      'GET',
      api('/conversations?tab=unread&labels=question,order'),
    );
    expect(filtered.body.data.conversations.map((c: { id: string }) => c.id)).toEqual([alice.id]);
    expect((await owner.call('GET', api('/conversations?tab=X'))).body.data.conversations).toEqual(
      [],
    );
    expect(
      (await owner.call('GET', api('/conversations?q=ALICE'))).body.data.conversations,
    ).toHaveLength(1);
    expect(
      (await owner.call('GET', api('/conversations?limit=1'))).body.meta.nextCursor,
    ).toBeTruthy();
    const page2 = await owner.call(
      'GET',
      api(
        `/conversations?limit=1&cursor=${(await owner.call('GET', api('/conversations?limit=1'))).body.meta.nextCursor}`,
      ),
    );
    expect(page2.body.data.conversations[0].id).toBe(alice.id);
    summary = await owner.call('GET', api('/summary'));
    expect(summary.body.data.unreadCount).toBe(1);

    // Done clears it from the open list; our own echo does not reopen it; a customer message does.
    await owner.call('PATCH', api(`/conversations/${alice.id}`), { status: 'done' });
    expect((await owner.call('GET', api('/conversations'))).body.data.conversations).toHaveLength(
      1,
    );
    expect(
      (await owner.call('GET', api('/conversations?status=done'))).body.data.conversations,
    ).toHaveLength(1);
    expect((await owner.call('GET', api('/summary'))).body.data.unreadCount).toBe(0);
    await ingest([dm('a-echo', 'alice', ago(5), 'Thanks!', { direction: 'out' })]);
    expect((await owner.call('GET', api('/conversations'))).body.data.conversations).toHaveLength(
      1,
    );
    await ingest([dm('a1', 'alice', ago(30), 'Hi from Alice')]); // a retry: not new
    expect((await owner.call('GET', api('/conversations'))).body.data.conversations).toHaveLength(
      1,
    );
    await ingest([dm('a2', 'alice', ago(1), 'One more thing')]);
    const reopened = await firstConversation(owner, api);
    expect(reopened).toMatchObject({ id: alice.id, status: 'open', unread: true });
    expect((await owner.call('GET', api('/summary'))).body.data.unreadCount).toBe(1);

    // Archive ("Delete conversation") takes it out of every list.
    expect((await owner.call('DELETE', api(`/conversations/${bob.id}`))).status).toBe(200);
    expect(
      (await owner.call('GET', api('/conversations'))).body.data.conversations.map(
        (c: { id: string }) => c.id,
      ),
    ).toEqual([alice.id]);
  });

  it('takes an edit for no new message: Done stays, unread stays, the order keeps the original time', async () => {
    const { ingest } = await setup();
    const sentAt = ago(30);
    await ingest([dm('e1', 'erin', sentAt, 'Where is my order?')]);
    await ingest([dm('f1', 'frank', ago(20), 'Hello')]);
    const c = inboxConversations;
    const [erin] = await t.database.db
      .update(c)
      .set({ status: 'done', unread: false })
      .where(eq(c.threadExternalId, 'erin'))
      .returning();
    // Edited a minute ago: same id, the edit's time.
    await ingest([dm('e1', 'erin', ago(1), 'Where is my order #12?', { edited: true })]);
    const [after] = await t.database.db.select().from(c).where(eq(c.id, erin!.id));
    expect(after).toMatchObject({
      status: 'done',
      unread: false,
      lastMessagePreview: 'Where is my order #12?',
    });
    expect(after!.lastMessageAt.toISOString()).toBe(sentAt);
    expect(after!.lastInboundAt!.toISOString()).toBe(sentAt);
    const messages = await t.database.db
      .select()
      .from(inboxMessages)
      .where(eq(inboxMessages.conversationId, erin!.id));
    expect(messages.map((m) => [m.text, m.edited, m.createdAt.toISOString()])).toEqual([
      ['Where is my order #12?', true, sentAt],
    ]);

    // The edit delivered before the original (both in one batch, or in two): one message, at
    // the original's time.
    const gina = ago(5);
    await ingest([
      dm('g1', 'gina', ago(2), 'Hi (edited)', { edited: true }),
      dm('g1', 'gina', gina, 'Hi'),
    ]);
    const [g] = await t.database.db
      .select()
      .from(inboxMessages)
      .where(eq(inboxMessages.externalId, 'g1'));
    expect([g!.text, g!.createdAt.toISOString()]).toEqual(['Hi (edited)', gina]);
  });

  it('previews the later-arriving of two messages of the same second in one batch', async () => {
    const { ingest, account } = await setup();
    const at = ago(3);
    // Arrival order differs from the ids' order.
    await ingest([
      dm('z-first', 'hana', at, 'Arrived first'),
      dm('a-second', 'hana', at, 'Arrived second'),
    ]);
    const [conversation] = await t.database.db
      .select()
      .from(inboxConversations)
      .where(eq(inboxConversations.integrationId, account.id));
    expect(conversation!.lastMessagePreview).toBe('Arrived second');
  });

  it('drops NUL characters a network sent, in texts, names and the post, and stores the rest', async () => {
    const { ingest, account } = await setup();
    await ingest([
      comment('n1', 'post-n', ago(2), 'Nice\u0000 post', {
        author: { ...person('u-n1', 'Ni\u0000na'), username: 'ni\u0000na' },
        rootPost: { externalId: 'post-n', permalink: null, text: 'Our\u0000 post' },
      }),
    ]);
    const [row] = await t.database.db
      .select()
      .from(inboxMessages)
      .innerJoin(inboxConversations, eq(inboxConversations.id, inboxMessages.conversationId))
      .where(eq(inboxConversations.integrationId, account.id));
    expect(row!.inbox_messages).toMatchObject({
      text: 'Nice post',
      author: { name: 'Nina', username: 'nina' },
    });
    expect(row!.inbox_conversations).toMatchObject({
      lastMessagePreview: 'Nice post',
      rootPostText: 'Our post',
    });
  });

  it('shows the thread oldest first with older pages, and notes only teammates see', async () => {
    const { owner, api, ingest } = await setup();
    await ingest([1, 2, 3, 4, 5].map((i) => dm(`t${i}`, 'tom', ago(60 - i), `Message ${i}`)));
    const { id } = await firstConversation(owner, api);
    const note = await owner.call('POST', api(`/conversations/${id}/notes`), {
      text: 'VIP customer',
    });
    expect(note.status).toBe(201);
    const page = await owner.call('GET', api(`/conversations/${id}?limit=2`));
    expect(page.body.data.messages.map((m: { text: string }) => m.text)).toEqual([
      'Message 4',
      'Message 5',
    ]);
    expect(page.body.data.notes).toMatchObject([{ text: 'VIP customer' }]);
    const older = await owner.call(
      'GET',
      api(`/conversations/${id}?limit=2&before=${page.body.data.olderCursor}`),
    );
    expect(older.body.data.messages.map((m: { text: string }) => m.text)).toEqual([
      'Message 2',
      'Message 3',
    ]);
    expect(fake.sends).toEqual([]);
  });

  it('sends a reply exactly once: a double press and a concurrent teammate get the same message', async () => {
    const { owner, api, ingest, orgId, roleId } = await setup();
    const { actor: mate } = await addMember(t.app, owner, orgId, `mate${n}@example.com`, {
      roleId: roleId('CustomerSupport'),
    });
    await ingest([dm('c1', 'carol', ago(60), 'Where is my parcel?')]);
    const { id } = await firstConversation(owner, api);
    fake.sendDelayMs = 150;
    const body = { text: '  It left today.  ', clientKey: 'draft-0001' };
    const [a, b] = await Promise.all([
      owner.call('POST', api(`/conversations/${id}/messages`), body),
      mate.call('POST', api(`/conversations/${id}/messages`), body),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.data.message.id).toBe(b.body.data.message.id);
    const again = await owner.call('POST', api(`/conversations/${id}/messages`), body);
    expect(again.status).toBe(200);
    expect(again.body.data.message).toMatchObject({ delivery: 'sent', externalId: 'sent-1' });
    expect(fake.sends).toHaveLength(1);
    expect(fake.sends[0]).toMatchObject({ kind: 'dm', text: 'It left today.' });
    expect(fake.sends[0]!.thread).toMatchObject({ threadExternalId: 'carol' });

    // The network's echo of it merges into the same row.
    await ingest([
      dm('sent-1', 'carol', new Date().toISOString(), 'It left today.', { direction: 'out' }),
    ]);
    const thread = await owner.call('GET', api(`/conversations/${id}`));
    expect(thread.body.data.messages.map((m: { text: string }) => m.text)).toEqual([
      'Where is my parcel?',
      'It left today.',
    ]);
    expect(thread.body.data.messages[1].sender.teammate).toMatchObject({ id: owner.userId });
    expect(thread.body.data.conversation.unread).toBe(true);
  });

  it('folds an echo that arrived before the send returned into the reply', async () => {
    const { owner, api, ingest } = await setup();
    await ingest([dm('e1', 'erin', ago(5), 'Hello?')]);
    const { id } = await firstConversation(owner, api);
    await ingest([
      dm('early-1', 'erin', new Date().toISOString(), 'Hi Erin', { direction: 'out' }),
    ]);
    fake.sendOutcomes = ['early-1'];
    const res = await owner.call('POST', api(`/conversations/${id}/messages`), {
      text: 'Hi Erin',
      clientKey: 'draft-early',
    });
    expect(res.body.data.message).toMatchObject({ delivery: 'sent', externalId: 'early-1' });
    const rows = await t.database.db
      .select()
      .from(inboxMessages)
      .where(eq(inboxMessages.externalId, 'early-1'));
    expect(rows).toHaveLength(1);
  });

  it('never takes an earlier reply of the same text for a lost one', async () => {
    const { owner, api, ingest } = await setup();
    await ingest([dm('s1', 'sam', ago(5), 'Open today?')]);
    const { id } = await firstConversation(owner, api);
    const post = (clientKey: string) =>
      owner.call('POST', api(`/conversations/${id}/messages`), { text: 'Yes!', clientKey });
    fake.sendOutcomes = ['same-1'];
    expect((await post('draft-same-1')).body.data.message).toMatchObject({ delivery: 'sent' });
    // The second send's answer is lost; the lookup finds the first reply's id.
    fake.sendOutcomes = [new PlatformError('unknown_outcome', 'Facebook timed out.')];
    fake.findSentAnswer = { externalId: 'same-1', createdAt: new Date() };
    const second = (await post('draft-same-2')).body.data.message;
    expect(second).toMatchObject({ delivery: 'uncertain', externalId: null });
    const thread = await owner.call('GET', api(`/conversations/${id}`));
    expect(
      thread.body.data.messages.filter((m: { text: string }) => m.text === 'Yes!'),
    ).toHaveLength(2);
  });

  it('reconciles an unknown outcome before sending again, and lets a person resolve an uncertain one', async () => {
    const { owner, api, ingest } = await setup();
    await ingest([dm('d1', 'dan', ago(5), 'Hello?')]);
    const { id } = await firstConversation(owner, api);
    const post = (text: string, clientKey: string) =>
      owner.call('POST', api(`/conversations/${id}/messages`), { text, clientKey });

    // The network took it: found, marked sent, not sent again.
    fake.sendOutcomes = [new PlatformError('unknown_outcome', 'Facebook timed out.')];
    fake.findSentAnswer = { externalId: 'found-1', createdAt: new Date() };
    expect((await post('First', 'draft-unk-1')).body.data.message).toMatchObject({
      delivery: 'sent',
      externalId: 'found-1',
    });

    // It certainly did not: failed, with a sentence.
    fake.sendOutcomes = [new PlatformError('unknown_outcome', 'Facebook timed out.')];
    fake.findSentAnswer = null;
    expect((await post('Second', 'draft-unk-2')).body.data.message).toMatchObject({
      delivery: 'failed',
      error: expect.stringMatching(/nothing was sent/),
    });

    // Nobody can tell: uncertain, then the person chooses.
    fake.sendOutcomes = [new PlatformError('unknown_outcome', 'Facebook timed out.')];
    fake.findSentAnswer = new PlatformError('transient', 'Facebook is down.');
    const uncertain = (await post('Third', 'draft-unk-3')).body.data.message;
    expect(uncertain).toMatchObject({ delivery: 'uncertain', externalId: null });
    expect(fake.sends.map((s) => s.text)).toEqual(['First', 'Second', 'Third']);
    const resend = await owner.call(
      'POST',
      api(`/conversations/${id}/messages/${uncertain.id}/resolve`),
      { action: 'resend' },
    );
    expect(resend.body.data.message).toMatchObject({ delivery: 'sent', id: uncertain.id });
    expect(fake.sends.map((s) => s.text)).toEqual(['First', 'Second', 'Third', 'Third']);
    const twice = await owner.call(
      'POST',
      api(`/conversations/${id}/messages/${uncertain.id}/resolve`),
      { action: 'sent' },
    );
    expect(twice.status).toBe(409);

    // A refusal is failed with the network's words; mark-sent and discard on uncertain ones.
    fake.sendOutcomes = [
      new PlatformError('bad_request', 'Facebook said: the person blocked the Page.'),
    ];
    expect((await post('Fourth', 'draft-unk-4')).body.data.message).toMatchObject({
      delivery: 'failed',
      error: 'Facebook said: the person blocked the Page.',
    });
    fake.sendOutcomes = [new PlatformError('unknown_outcome', 'x')];
    fake.findSentAnswer = new PlatformError('transient', 'x');
    const fifth = (await post('Fifth', 'draft-unk-5')).body.data.message;
    const marked = await owner.call(
      'POST',
      api(`/conversations/${id}/messages/${fifth.id}/resolve`),
      { action: 'sent' },
    );
    expect(marked.body.data.message.delivery).toBe('sent');
    fake.sendOutcomes = [new PlatformError('unknown_outcome', 'x')];
    const sixth = (await post('Sixth', 'draft-unk-6')).body.data.message;
    await owner.call('POST', api(`/conversations/${id}/messages/${sixth.id}/resolve`), {
      action: 'discard',
    });
    const texts = (await owner.call('GET', api(`/conversations/${id}`))).body.data.messages.map(
      (m: { text: string }) => m.text,
    );
    expect(texts).not.toContain('Sixth');
  });

  it('refuses a draft key reused for different words, and attachments the network does not take', async () => {
    const { owner, api, ingest } = await setup();
    await ingest([dm('r1', 'rita', ago(5), 'Do you ship abroad?')]);
    const { id } = await firstConversation(owner, api);
    const post = (body: Record<string, unknown>) =>
      owner.call('POST', api(`/conversations/${id}/messages`), body);
    expect((await post({ text: 'Yes, everywhere.', clientKey: 'draft-key-1' })).status).toBe(201);
    const reused = await post({ text: 'No, only at home.', clientKey: 'draft-key-1' });
    expect(reused.status).toBe(409);
    expect(reused.body.message).toMatch(/already sent with different words; nothing was sent/);
    expect(fake.sends.map((s) => s.text)).toEqual(['Yes, everywhere.']);

    // Text only here: any attachment is refused and nothing is stored.
    const photo = { type: 'image', url: 'https://cdn.example.test/a.png' };
    const textOnly = await post({ text: 'See', clientKey: 'draft-att-1', attachments: [photo] });
    expect(textOnly.status).toBe(400);
    expect(textOnly.body.message).toBe(
      'Facebook replies from Herald carry text only, so the image cannot be sent; nothing was sent.',
    );
    // A network that takes images refuses videos, naming what it takes; images go out.
    fake.caps = { ...fake.caps, replyAttachments: ['image'] };
    const video = await post({
      text: 'See',
      clientKey: 'draft-att-2',
      attachments: [photo, { type: 'video', url: 'https://cdn.example.test/a.mp4' }],
    });
    expect(video.status).toBe(400);
    expect(video.body.message).toMatch(/does not take videos in replies here \(only images\)/);
    const bad = await post({
      text: 'See',
      clientKey: 'draft-att-3',
      attachments: [{ type: 'gif' }],
    });
    expect(bad.status).toBe(400);
    const rows = await t.database.db
      .select({ clientKey: inboxMessages.clientKey })
      .from(inboxMessages)
      .where(eq(inboxMessages.conversationId, id));
    expect(rows.map((r) => r.clientKey).filter(Boolean)).toEqual(['draft-key-1']);
    expect(fake.sends).toHaveLength(1);
    const sent = await post({ text: 'See', clientKey: 'draft-att-4', attachments: [photo] });
    expect(sent.status).toBe(201);
    expect(sent.body.data.message.attachments).toMatchObject([photo]);
    expect(fake.sends[1]).toMatchObject({ text: 'See', attachments: [photo] });
  });

  it('answers a retried draft key with the same reply after the echo rewrote its text and files', async () => {
    const { owner, api, ingest } = await setup();
    await ingest([dm('v1', 'vera', ago(5), 'Can I see it?')]);
    const { id } = await firstConversation(owner, api);
    fake.caps = { ...fake.caps, replyAttachments: ['image'] };
    const post = (body: Record<string, unknown>) =>
      owner.call('POST', api(`/conversations/${id}/messages`), body);
    const photo = { type: 'image', url: 'https://uploads.example.test/red.png' };
    const body = {
      text: 'Here  it is:\u00a0red.',
      clientKey: 'draft-echo-1',
      attachments: [photo],
    };
    const first = await post(body);
    expect(first.status).toBe(201);
    expect(first.body.data.message.externalId).toBe('sent-1');
    // The network's echo of our reply: its normalised text and its own CDN copy of the file.
    await ingest([
      dm('sent-1', 'vera', new Date().toISOString(), 'Here it is: red.', {
        direction: 'out',
        attachments: [
          { type: 'image', url: 'https://cdn.network.test/x/1.png', previewUrl: null, title: null },
        ],
      }),
    ]);
    const [row] = await t.database.db
      .select()
      .from(inboxMessages)
      .where(eq(inboxMessages.clientKey, 'draft-echo-1'));
    expect(row).toMatchObject({ text: 'Here it is: red.' });
    expect(row!.attachments[0]!.url).toBe('https://cdn.network.test/x/1.png');

    // The response was lost: the client sends the same request again.
    const retried = await post(body);
    expect(retried.status).toBe(200);
    expect(retried.body.data.message.id).toBe(first.body.data.message.id);
    // The key reused for other words or other files is still refused.
    for (const other of [
      { ...body, text: 'Here it is: blue.' },
      { ...body, attachments: [{ type: 'image', url: 'https://uploads.example.test/blue.png' }] },
      { ...body, attachments: [] },
    ]) {
      const res = await post(other);
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/already sent with different words/);
    }
    // A row stored before the fingerprint was kept is matched on its columns.
    await t.database.db
      .update(inboxMessages)
      .set({ requestFingerprint: null })
      .where(eq(inboxMessages.id, row!.id));
    expect((await post(body)).status).toBe(409);
    const asStored = await post({
      ...body,
      text: 'Here it is: red.',
      attachments: [{ type: 'image', url: 'https://cdn.network.test/x/1.png' }],
    });
    expect(asStored.status).toBe(200);
    expect(asStored.body.data.message.id).toBe(first.body.data.message.id);
    expect(fake.sends).toHaveLength(1);
  });

  it('refuses replies over the length limit, when the window is closed, and empty ones; nothing is sent', async () => {
    const { owner, api, ingest } = await setup();
    await ingest([dm('w1', 'wendy', ago(25 * 60), 'Old message')]);
    const { id, window } = await firstConversation(owner, api);
    expect(window.open).toBe(false);
    expect(window.reason).toMatch(/24 hours/);
    const closed = await owner.call('POST', api(`/conversations/${id}/messages`), {
      text: 'Sorry for the delay',
      clientKey: 'draft-closed',
    });
    expect(closed.status).toBe(409);
    expect(closed.body.message).toMatch(/within 24 hours/);
    const long = await owner.call('POST', api(`/conversations/${id}/messages`), {
      text: 'x'.repeat(101),
      clientKey: 'draft-long',
    });
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/at most 100 characters/);
    const empty = await owner.call('POST', api(`/conversations/${id}/messages`), {
      text: '   ',
      clientKey: 'draft-empty',
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/Reply cannot be empty\./);
    // With HUMAN_AGENT the window is 7 days.
    fake.caps = { ...fake.caps, humanAgentWindowHours: 168 };
    const open = await owner.call('POST', api(`/conversations/${id}/messages`), {
      text: 'Sorry for the delay',
      clientKey: 'draft-human',
    });
    expect(open.status).toBe(201);
    expect(fake.sends.map((s) => s.text)).toEqual(['Sorry for the delay']);
    const rows = await t.database.db
      .select()
      .from(inboxMessages)
      .where(eq(inboxMessages.clientKey, 'draft-closed'));
    expect(rows).toEqual([]);
  });

  it('replies to comments, privately once per comment, and likes, hides and deletes them', async () => {
    const { owner, api, ingest } = await setup();
    await ingest([
      comment('k1', 'post-9', ago(30), 'Love it'),
      comment('k2', 'post-9', ago(20), 'Price?'),
    ]);
    const conversation = await firstConversation(owner, api);
    expect(conversation).toMatchObject({
      kind: 'comments',
      post: { externalId: 'post-9', permalink: 'https://example.test/p/post-9' },
      capabilities: { privateReply: true, like: true, hide: true, deleteOnNetwork: true },
    });
    const thread = await owner.call('GET', api(`/conversations/${conversation.id}`));
    const [love, price] = thread.body.data.messages;
    expect(price.canPrivateReply).toBe(true);
    const pub = await owner.call('POST', api(`/conversations/${conversation.id}/messages`), {
      text: 'Thank you!',
      clientKey: 'draft-comment',
      replyTo: love.id,
    });
    expect(pub.status).toBe(201);
    expect(fake.sends[0]).toMatchObject({ kind: 'comment', to: 'k1' });
    const priv = await owner.call('POST', api(`/conversations/${conversation.id}/messages`), {
      text: 'It is 20 €',
      clientKey: 'draft-private-1',
      privateReplyTo: price.id,
    });
    expect(priv.status).toBe(201);
    expect(priv.body.data.message.privateReply).toBe(true);
    expect(fake.sends[1]).toMatchObject({ kind: 'private', to: 'k2' });
    const second = await owner.call('POST', api(`/conversations/${conversation.id}/messages`), {
      text: 'Also…',
      clientKey: 'draft-private-2',
      privateReplyTo: price.id,
    });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/one per comment/);
    expect(fake.sends).toHaveLength(2);

    const base = `/conversations/${conversation.id}/messages/${love.id}`;
    expect(
      (await owner.call('POST', api(`${base}/like`), { liked: true })).body.data.message.liked,
    ).toBe(true);
    expect(
      (await owner.call('POST', api(`${base}/hide`), { hidden: true })).body.data.message.hidden,
    ).toBe(true);
    expect((await owner.call('DELETE', api(base))).body.data.message.deleted).toBe(true);
    expect(fake.actions).toEqual(['like k1 true', 'hide k1 true', 'delete k1']);
    // Block is absent for this network: refused, not pretended.
    expect((await owner.call('POST', api(`/conversations/${conversation.id}/block`))).status).toBe(
      409,
    );
  });

  it('links the DM echo of a private reply to the comment it answered, on both sides', async () => {
    const { owner, api, ingest } = await setup();
    await ingest([comment('pc1', 'post-pr', ago(30), 'How much is shipping?')]);
    const comments = await firstConversation(owner, api);
    const [asked] = (await owner.call('GET', api(`/conversations/${comments.id}`))).body.data
      .messages;
    fake.sendOutcomes = ['mid-private-1'];
    const sent = await owner.call('POST', api(`/conversations/${comments.id}/messages`), {
      text: 'Free over 50 €',
      clientKey: 'draft-private-link',
      privateReplyTo: asked.id,
    });
    expect(sent.body.data.message).toMatchObject({ privateReply: true, privateReplyLink: null });
    // Meta echoes it into the DM conversation with the commenter (a PSID of its own), and an
    // unrelated reply of ours goes to someone else.
    await ingest([
      dm('mid-private-1', 'psid-77', new Date().toISOString(), 'Free over 50 €', {
        direction: 'out',
      }),
      dm('mid-other', 'psid-88', new Date().toISOString(), 'Hello', { direction: 'out' }),
    ]);
    const list = (await owner.call('GET', api('/conversations'))).body.data.conversations;
    const dmWith = (thread: string) =>
      list.find((c: { kind: string; participant: { externalId: string } }) => {
        return c.kind === 'dm' && c.participant.externalId === thread;
      });
    const echo = (await owner.call('GET', api(`/conversations/${dmWith('psid-77').id}`))).body.data
      .messages[0];
    expect(echo).toMatchObject({
      text: 'Free over 50 €',
      privateReply: true,
      privateReplyLink: {
        conversationId: comments.id,
        messageId: asked.id,
        commentText: 'How much is shipping?',
      },
    });
    const other = (await owner.call('GET', api(`/conversations/${dmWith('psid-88').id}`))).body.data
      .messages[0];
    expect(other).toMatchObject({ privateReply: false, privateReplyLink: null });
    const thread = (await owner.call('GET', api(`/conversations/${comments.id}`))).body.data
      .messages;
    expect(thread[1]).toMatchObject({
      text: 'Free over 50 €',
      privateReply: true,
      privateReplyLink: {
        conversationId: dmWith('psid-77').id,
        messageId: echo.id,
        commentText: null,
      },
    });
    expect(thread[0].privateReplyLink).toBeNull();
  });

  it('assigns to a teammate who is notified; labels, saved replies and typing', async () => {
    const { owner, api, ingest, orgId, roleId } = await setup();
    const { actor: mate } = await addMember(t.app, owner, orgId, `assignee${n}@example.com`, {
      roleId: roleId('CustomerSupport'),
    });
    await ingest([dm('s1', 'sam', ago(5), 'Help')]);
    const { id } = await firstConversation(owner, api);
    const assigned = await owner.call('PATCH', api(`/conversations/${id}`), {
      assigneeId: mate.userId,
    });
    expect(assigned.body.data.conversation.assignee).toMatchObject({ id: mate.userId });
    const notes = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, mate.userId));
    expect(notes).toMatchObject([{ type: 'INBOX_ASSIGNED', organizationId: orgId }]);
    expect(notes[0]!.message).toMatch(/assigned you the conversation with Customer sam/);
    expect(
      (await mate.call('GET', api('/conversations?assignee=me'))).body.data.conversations,
    ).toHaveLength(1);
    const stranger = await owner.call('PATCH', api(`/conversations/${id}`), {
      assigneeId: '00000000-0000-4000-8000-000000000000',
    });
    expect(stranger.status).toBe(400);

    expect(
      (await owner.call('PATCH', api(`/conversations/${id}`), { labels: ['vip'] })).status,
    ).toBe(400);
    const added = await owner.call('POST', api('/labels'), { name: 'VIP' });
    expect(added.body.data.labels).toContain('vip');
    await owner.call('PATCH', api(`/conversations/${id}`), { labels: ['vip', 'order'] });
    await owner.call('DELETE', api('/labels/vip'));
    expect((await firstConversation(owner, api)).labels).toEqual(['order']);
    expect((await owner.call('DELETE', api('/labels/order'))).status).toBe(409);

    const saved = await owner.call('POST', api('/saved-replies'), {
      title: 'Shipping',
      text: 'Parcels leave within two days.',
    });
    expect(saved.status).toBe(201);
    expect((await mate.call('GET', api('/saved-replies'))).body.data.savedReplies).toMatchObject([
      { title: 'Shipping' },
    ]);
    expect(
      (await owner.call('DELETE', api(`/saved-replies/${saved.body.data.savedReply.id}`))).status,
    ).toBe(200);
    expect(
      (await owner.call('POST', api(`/conversations/${id}/typing`), { typing: true })).status,
    ).toBe(200);
  });

  it('manages the organization’s labels: create with a colour, rename everywhere, recolour, delete', async () => {
    const { owner, api, ingest, orgId, roleId } = await setup();
    await ingest([dm('lb1', 'lou', ago(5), 'Hi')]);
    const { id } = await firstConversation(owner, api);
    const created = await owner.call('POST', api('/labels'), { name: 'Wholesale', color: 'teal' });
    expect(created.body.data.ownLabels).toEqual([{ name: 'wholesale', color: 'teal' }]);
    await owner.call('PATCH', api(`/conversations/${id}`), { labels: ['wholesale', 'order'] });

    const renamed = await owner.call('PATCH', api('/labels/wholesale'), { name: 'B2B' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.labels).toContain('b2b');
    expect(renamed.body.data.labels).not.toContain('wholesale');
    expect((await firstConversation(owner, api)).labels).toEqual(['b2b', 'order']);
    const recoloured = await owner.call('PATCH', api('/labels/b2b'), { color: 'pink' });
    expect(recoloured.body.data.ownLabels).toEqual([{ name: 'b2b', color: 'pink' }]);
    expect((await owner.call('GET', api('/summary'))).body.data.ownLabels).toEqual([
      { name: 'b2b', color: 'pink' },
    ]);

    // Clear refusals, nothing changed.
    await owner.call('POST', api('/labels'), { name: 'Retail' });
    const taken = await owner.call('PATCH', api('/labels/b2b'), { name: 'retail' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('There is already a label "retail" in this organization.');
    expect((await owner.call('PATCH', api('/labels/b2b'), { name: 'order' })).status).toBe(409);
    const kept = await owner.call('PATCH', api('/labels/question'), { color: 'red' });
    expect(kept.status).toBe(409);
    expect(kept.body.message).toMatch(/one of the seven every organization keeps/);
    expect((await owner.call('PATCH', api('/labels/nope'), { color: 'red' })).status).toBe(404);
    const badColour = await owner.call('PATCH', api('/labels/b2b'), { color: 'plaid' });
    expect(badColour.status).toBe(400);
    expect(badColour.body.message).toMatch(/Choose one of the colours/);
    expect((await owner.call('PATCH', api('/labels/b2b'), {})).status).toBe(400);
    expect((await firstConversation(owner, api)).labels).toEqual(['b2b', 'order']);

    // dm:view reads them but cannot change them.
    const { actor: viewer } = await addMember(t.app, owner, orgId, `labels${n}@example.com`, {
      roleId: roleId('CustomerSupport'),
      permissions: ['dm:view'],
    });
    expect((await viewer.call('PATCH', api('/labels/b2b'), { color: 'red' })).status).toBe(403);
    expect((await viewer.call('POST', api('/labels'), { name: 'Mine' })).status).toBe(403);
    expect((await viewer.call('DELETE', api('/labels/b2b'))).status).toBe(403);
    const deleted = await owner.call('DELETE', api('/labels/b2b'));
    expect(deleted.body.data.ownLabels).toEqual([{ name: 'retail', color: null }]);
    expect((await firstConversation(owner, api)).labels).toEqual(['order']);
  });

  it('enforces dm:view and dm:send, and keeps organizations apart', async () => {
    const { owner, api, ingest, orgId, roleId } = await setup();
    await ingest([dm('v1', 'vic', ago(5), 'Hi')]);
    const { id } = await firstConversation(owner, api);
    const { actor: viewer } = await addMember(t.app, owner, orgId, `viewer${n}@example.com`, {
      roleId: roleId('CustomerSupport'),
      permissions: ['dm:view'],
    });
    expect((await viewer.call('GET', api('/conversations'))).status).toBe(200);
    expect((await viewer.call('GET', api(`/conversations/${id}`))).status).toBe(200);
    const refused = await viewer.call('POST', api(`/conversations/${id}/messages`), {
      text: 'Hi',
      clientKey: 'draft-viewer',
    });
    expect(refused.status).toBe(403);
    expect(
      (await viewer.call('PATCH', api(`/conversations/${id}`), { unread: false })).status,
    ).toBe(403);
    const { actor: poster } = await addMember(t.app, owner, orgId, `poster${n}@example.com`, {
      roleId: roleId('ContentCreator'),
    });
    expect((await poster.call('GET', api('/conversations'))).status).toBe(403);
    const dash = await poster.call('GET', `/api/organizations/${orgId}/dashboard`);
    expect(dash.body.data.unreadMessages).toBeNull();

    // Another organization's owner, with its own inbox, cannot reach this conversation.
    const other = await setup();
    const foreign = `/api/organizations/${other.orgId}/inbox/conversations/${id}`;
    expect((await other.owner.call('GET', foreign)).status).toBe(404);
    expect(
      (
        await other.owner.call('POST', `${foreign}/messages`, {
          text: 'Hi',
          clientKey: 'draft-x-org',
        })
      ).status,
    ).toBe(404);
    expect((await other.owner.call('PATCH', foreign, { status: 'done' })).status).toBe(404);
    expect(
      (
        await other.owner.call(
          'GET',
          `/api/organizations/${other.orgId}/inbox/conversations/not-an-id`,
        )
      ).status,
    ).toBe(404);
    expect(fake.sends).toEqual([]);
    const [row] = await t.database.db
      .select()
      .from(inboxConversations)
      .where(eq(inboxConversations.id, id));
    expect(row!.status).toBe('open');
  });

  it('streams new messages and a teammate typing to members who may see the inbox', async () => {
    const { owner, api, ingest, orgId, roleId } = await setup();
    const { actor: mate } = await addMember(t.app, owner, orgId, `live${n}@example.com`, {
      roleId: roleId('CustomerSupport'),
    });
    await ingest([dm('l1', 'lea', ago(5), 'Hello')]);
    const { id } = await firstConversation(owner, api);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const controller = new AbortController();
    const res = await fetch(
      `http://127.0.0.1:${port}/api/notifications/stream?organizationId=${orgId}`,
      { headers: { cookie: mate.jar.header() }, signal: controller.signal },
    );
    const reader = res.body!.getReader();
    let text = '';
    const received = (async () => {
      while (!(text.includes('event: inbox-typing') && text.includes('event: inbox\n'))) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      return text;
    })();
    await sleep(200);
    await owner.call('POST', api(`/conversations/${id}/typing`), { typing: true });
    await ingest([dm('l2', 'lea', ago(1), 'Still there?')]);
    await Promise.race([received, sleep(5000)]);
    controller.abort();
    const typing = /event: inbox-typing\ndata: (.+)\n/.exec(text)?.[1];
    expect(JSON.parse(typing!)).toMatchObject({
      organizationId: orgId,
      conversationId: id,
      user: { id: owner.userId },
      typing: true,
    });
    const change = /event: inbox\ndata: (.+)\n/.exec(text)?.[1];
    expect(JSON.parse(change!)).toEqual({
      organizationId: orgId,
      conversationId: id,
      change: 'message',
    });
  });

  it('closes the stream of a member whose role loses dm:view; a stream without it starts carrying the inbox when it is back', async () => {
    const { owner, api, ingest, orgId, roleId } = await setup();
    const { actor: mate, memberId } = await addMember(t.app, owner, orgId, `role${n}@example.com`, {
      roleId: roleId('CustomerSupport'),
    });
    await ingest([dm('x1', 'xena', ago(9), 'First')]);
    await ingest([dm('y1', 'yann', ago(8), 'First')]);
    const list = (await owner.call('GET', api('/conversations'))).body.data.conversations;
    const idOf = (title: string) => list.find((c: { title: string }) => c.title === title).id;
    const baseUrl = await listeningUrl(t.app);
    const changeRole = async (role: string) => {
      const changed = await owner.call('PUT', `/api/organizations/${orgId}/members/${memberId}`, {
        roleId: roleId(role),
      });
      expect(changed.status).toBe(200);
    };
    const first = await openStream(baseUrl, mate.jar.header(), orgId);
    expect(first.status).toBe(200);
    await changeRole('ContentCreator');
    expect(await within(first.ended, 20_000)).not.toBe('timeout');

    // The page opens its next stream: the member's notifications, no inbox.
    const second = await openStream(baseUrl, mate.jar.header(), orgId);
    expect(second.status).toBe(200);
    await ingest([dm('x2', 'xena', ago(2), 'While you could not see')]);
    await owner.call('POST', api(`/conversations/${idOf('Customer xena')}/typing`), {
      typing: true,
    });
    // Events are sent in arrival order: once this notification is through, so are the above.
    await insertNotificationsFor(
      t.database.db,
      orgId,
      { admins: false, userIds: [mate.userId] },
      { type: 'SUBSCRIPTION_UPDATE', priority: 'LOW', message: 'Marker' },
    );
    expect(
      await within(
        second.next((e) => e.event === 'notification' && e.data.includes('Marker')),
        20_000,
      ),
    ).not.toBe('timeout');
    await changeRole('CustomerSupport');
    await ingest([dm('y2', 'yann', ago(1), 'Now you can')]);
    const yannId = idOf('Customer yann');
    const arrived = await within(
      second.next((e) => e.event === 'inbox' && e.data.includes(yannId)),
      20_000,
    );
    second.abort();
    expect(arrived).not.toBe('timeout');
    expect(JSON.stringify([...first.events, ...second.events])).not.toContain(
      idOf('Customer xena'),
    );
  });

  it('reconciles replies a stopped process left pending, without sending them again', async () => {
    const { owner, api, ingest, orgId } = await setup();
    await ingest([dm('z1', 'zoe', ago(5), 'Hi')]);
    const { id } = await firstConversation(owner, api);
    const stale = (clientKey: string, text: string) => ({
      organizationId: orgId,
      conversationId: id,
      clientKey,
      kind: 'dm' as const,
      direction: 'out' as const,
      text,
      createdAt: new Date(Date.now() - 30 * 60_000),
      delivery: 'pending' as const,
      updatedAt: new Date(Date.now() - 30 * 60_000),
    });
    await t.database.db.insert(inboxMessages).values(stale('draft-stale-1', 'Found one'));
    fake.findSentAnswer = { externalId: 'net-found', createdAt: new Date() };
    await t.runtime.inbox.sync.pollDue();
    await t.database.db.insert(inboxMessages).values(stale('draft-stale-2', 'Lost one'));
    fake.findSentAnswer = new PlatformError('transient', 'Facebook is down.');
    await t.runtime.inbox.sync.pollDue();
    // The network says for certain it is not there: failed, to be sent again by the person.
    await t.database.db.insert(inboxMessages).values(stale('draft-stale-3', 'Never arrived'));
    fake.findSentAnswer = null;
    await t.runtime.inbox.sync.pollDue();
    const rows = await t.database.db
      .select()
      .from(inboxMessages)
      .where(eq(inboxMessages.conversationId, id));
    const byKey = Object.fromEntries(rows.map((r) => [r.clientKey, r]));
    expect(byKey['draft-stale-1']).toMatchObject({ delivery: 'sent', externalId: 'net-found' });
    expect(byKey['draft-stale-2']).toMatchObject({ delivery: 'uncertain' });
    expect(byKey['draft-stale-3']).toMatchObject({
      delivery: 'failed',
      error: expect.stringMatching(/did not receive it; nothing was sent/),
    });
    expect(fake.sends).toEqual([]);
  });
});
