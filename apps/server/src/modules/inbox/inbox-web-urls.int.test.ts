import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inboxConversations, inboxMessages } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import {
  comment,
  deliver,
  dm,
  FakeInbox,
  processStoredWebhooks,
  seedAccount,
  testReceiver,
  useFakeInbox,
} from '../../test/inbox-fake.js';
import type { InboxMessageEvent } from '../../platforms/inbox-types.js';

let t: TestApp;
let fake: FakeInbox;
beforeAll(async () => {
  t = await createTestApp({}, { webhookReceivers: [testReceiver] });
}, 60_000);
afterAll(() => t?.close());
beforeEach(() => {
  fake = new FakeInbox();
  useFakeInbox(t, fake, 'facebook');
});

const XSS = 'javascript:alert(1)';
/** Everything a network hands Herald as an address, none of it a web one. */
const hostile = (event: InboxMessageEvent): InboxMessageEvent => ({
  ...event,
  author: { ...event.author, pictureUrl: XSS, profileUrl: 'JavaScript:alert(document.cookie)' },
  ...(event.counterpart
    ? { counterpart: { ...event.counterpart, pictureUrl: 'java\tscript:alert(1)' } }
    : {}),
  attachments: [
    { type: 'image', url: XSS, previewUrl: 'data:text/html,<script>alert(1)</script>', title: 'a' },
    { type: 'file', url: 'https://cdn.example.test@evil.example/x', previewUrl: null, title: 'b' },
    { type: 'image', url: 'https://cdn.example.test/ok.png', previewUrl: null, title: 'kept' },
  ],
  ...(event.rootPost ? { rootPost: { ...event.rootPost, permalink: XSS } } : {}),
});

let n = 0;
async function setup() {
  n++;
  const org = await createOrg(t.app, `urls${n}@example.com`, `Urls ${n}`);
  const account = await seedAccount(t.database.db, org.orgId, 'Facebook', `page-urls-${n}`);
  const api = (suffix: string) => `/api/organizations/${org.orgId}/inbox${suffix}`;
  return { ...org, account, api };
}

/** The stored rows of the account's conversations and messages, as JSON text. */
async function storedOf(integrationId: string) {
  const conversations = await t.database.db
    .select()
    .from(inboxConversations)
    .where(eq(inboxConversations.integrationId, integrationId));
  const messages = await t.database.db
    .select()
    .from(inboxMessages)
    .innerJoin(inboxConversations, eq(inboxConversations.id, inboxMessages.conversationId))
    .where(eq(inboxConversations.integrationId, integrationId));
  return { conversations, messages: messages.map((m) => m.inbox_messages) };
}

const noHostileAddress = (value: unknown) => {
  const text = JSON.stringify(value);
  expect(text).not.toMatch(/javascript:|data:text|evil\.example/i);
  expect(text).not.toContain('java\\tscript');
};

describe('addresses the networks give the inbox', () => {
  it('stores and serves a webhook comment without its javascript: picture, attachment and permalink', async () => {
    const { owner, account, api } = await setup();
    const event = hostile(comment('cw1', 'post-w', '2026-03-01T10:00:00Z', 'Look'));
    expect((await deliver(t, [{ account: account.platformAccountId, event }])).statusCode).toBe(
      200,
    );
    await processStoredWebhooks(t);

    const stored = await storedOf(account.id);
    expect(stored.conversations).toHaveLength(1);
    noHostileAddress(stored);
    expect(stored.conversations[0]).toMatchObject({ rootPostPermalink: null });
    expect(stored.messages[0]!.author).toMatchObject({ pictureUrl: null, profileUrl: null });
    expect(stored.messages[0]!.attachments).toEqual([
      { type: 'image', url: null, previewUrl: null, title: 'a' },
      { type: 'file', url: null, previewUrl: null, title: 'b' },
      { type: 'image', url: 'https://cdn.example.test/ok.png', previewUrl: null, title: 'kept' },
    ]);

    const list = await owner.call('GET', api('/conversations'));
    expect(list.status).toBe(200);
    const conversation = list.body.data.conversations[0];
    expect(conversation.post).toMatchObject({ externalId: 'post-w', permalink: null });
    expect(conversation.participant).toMatchObject({ pictureUrl: null, profileUrl: null });
    const thread = await owner.call('GET', api(`/conversations/${conversation.id}`));
    expect(thread.status).toBe(200);
    noHostileAddress(thread.body);
    expect(thread.body.data.messages[0].sender.pictureUrl).toBeNull();
    expect(thread.body.data.messages[0].attachments[2].url).toBe('https://cdn.example.test/ok.png');
  });

  it('stores a polled DM without the javascript: pictures of its author and customer', async () => {
    const { owner, account, api } = await setup();
    fake.pollAnswers = [
      {
        events: [hostile(dm('dp1', 'cust-p', '2026-03-02T10:00:00Z', 'Hi'))],
        cursor: { since: 'dp1' },
      },
    ];
    expect(await t.runtime.inbox.sync.pollAccount(account.id)).toBe('POLLED');
    const stored = await storedOf(account.id);
    expect(stored.messages).toHaveLength(1);
    noHostileAddress(stored);
    expect(stored.conversations[0]!.participant).toMatchObject({ pictureUrl: null });
    const list = await owner.call('GET', api('/conversations'));
    noHostileAddress(list.body);
  });

  it('keeps web addresses as the network gave them', async () => {
    const { account, api, owner } = await setup();
    const event = comment('cg1', 'post-g', '2026-03-03T10:00:00Z', 'Fine', {
      attachments: [
        {
          type: 'image',
          url: 'https://scontent.example.test/v/t1.0-9/1_n.jpg?_nc_cat=1&oh=ab',
          previewUrl: 'http://cdn.example.test/p.jpg',
          title: null,
        },
      ],
    });
    await deliver(t, [{ account: account.platformAccountId, event }]);
    await processStoredWebhooks(t);
    const list = await owner.call('GET', api('/conversations'));
    const conversation = list.body.data.conversations[0];
    expect(conversation.post.permalink).toBe('https://example.test/p/post-g');
    expect(conversation.participant.profileUrl).toBe('https://example.test/u-cg1');
    const thread = await owner.call('GET', api(`/conversations/${conversation.id}`));
    expect(thread.body.data.messages[0].attachments[0]).toMatchObject({
      url: 'https://scontent.example.test/v/t1.0-9/1_n.jpg?_nc_cat=1&oh=ab',
      previewUrl: 'http://cdn.example.test/p.jpg',
    });
  });

  it('serves rows stored before the rule without their bad addresses, never failing', async () => {
    const { account, api, owner } = await setup();
    await deliver(t, [
      {
        account: account.platformAccountId,
        event: comment('co1', 'post-o', '2026-03-04T10:00:00Z', 'Old'),
      },
    ]);
    await processStoredWebhooks(t);
    // What an older Herald stored: written straight into the tables.
    await t.database.db
      .update(inboxConversations)
      .set({
        rootPostPermalink: XSS,
        participant: {
          externalId: 'u-co1',
          name: 'Old',
          username: 'old',
          pictureUrl: XSS,
          profileUrl: XSS,
        },
      })
      .where(eq(inboxConversations.integrationId, account.id));
    const [conversation] = await t.database.db
      .select()
      .from(inboxConversations)
      .where(eq(inboxConversations.integrationId, account.id));
    await t.database.db
      .update(inboxMessages)
      .set({
        author: {
          externalId: 'u-co1',
          name: 'Old',
          username: 'old',
          pictureUrl: XSS,
          profileUrl: null,
        },
        attachments: [{ type: 'image', url: XSS, previewUrl: XSS, title: null }],
      })
      .where(eq(inboxMessages.conversationId, conversation!.id));

    const list = await owner.call('GET', api('/conversations'));
    expect(list.status).toBe(200);
    noHostileAddress(list.body);
    const thread = await owner.call('GET', api(`/conversations/${conversation!.id}`));
    expect(thread.status).toBe(200);
    noHostileAddress(thread.body);
    expect(thread.body.data.messages[0].attachments[0]).toMatchObject({ url: null });
  });
});
