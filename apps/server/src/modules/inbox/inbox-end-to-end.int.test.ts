import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { INBOX_IMPORT_QUEUE, INBOX_WEBHOOK_QUEUE } from './inbox-queue.js';

/**
 * The whole path with the real pieces: a Page connected through Herald's own flow, a customer
 * writing to it in the Facebook sandbox, the sandbox's signed webhook reaching Herald's endpoint,
 * the job storing it, the API listing it, and a reply going out exactly once.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'all', queues: [INBOX_WEBHOOK_QUEUE, INBOX_IMPORT_QUEUE] });
}, 60_000);
afterAll(() => t?.close());

const origin = { origin: TEST_PUBLIC_URL };

async function api(
  actor: Actor,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  url: string,
  payload?: object,
) {
  const res = await send(t.app, actor.jar, {
    method,
    url: `/api${url}`,
    headers: method === 'GET' ? {} : origin,
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() as any };
}

async function emu(actor: Actor, path: string, payload?: object, network = 'facebook') {
  const res = await send(t.app, actor.jar, {
    method: payload ? 'POST' : 'GET',
    url: `/api/sandbox/${network}/_emu/${path}`,
    headers: payload ? origin : {},
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as any;
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 100; i++) {
    last = await read();
    if (ok(last)) return last;
    await sleep(100);
  }
  throw new Error(`Never happened; last: ${JSON.stringify(last)}`);
}

describe('Facebook Page inbox, end to end through the sandbox', () => {
  it('a customer DM arrives by webhook, counts as unread, and one reply goes out for two presses of Send', async () => {
    const { owner, orgId } = await createOrg(t.app, 'corner.shop@example.com', 'Corner Shop');
    const done = await connectThroughSandbox(t.app, owner, 'facebook', orgId, {
      account: 'cornershop',
      fields: { pages: 'Corner Shop Page' },
    });
    expect(new URL(done).searchParams.get('connected')).toBeTruthy();
    const integrations = await api(owner, 'GET', `/organizations/${orgId}/integrations`);
    const page = integrations.body.data.platforms[0];
    const pageId = page.platformAccountId as string;
    expect(pageId).toBeTruthy();

    // The first import subscribes the app to the Page's webhooks.
    await eventually(
      () => api(owner, 'GET', `/organizations/${orgId}/inbox/summary`),
      (r) => r.body.data.accounts.some((a: any) => a.lastSyncedAt),
    );

    await emu(owner, 'inbox/messages', {
      to: pageId,
      fromName: 'Rosa Díaz',
      text: '¿Abren el domingo?',
    });
    // The webhook carries only the customer's id; Herald asks the Conversations API for her name
    // right away, so the list names her before anyone opens the thread (and before any poll).
    const list = await eventually(
      () => api(owner, 'GET', `/organizations/${orgId}/inbox/conversations`),
      (r) => r.body.data.conversations[0]?.title === 'Rosa Díaz',
    );
    const conversation = list.body.data.conversations[0];
    expect(conversation.participant).toMatchObject({ name: 'Rosa Díaz' });
    expect(conversation).toMatchObject({
      platform: 'Facebook',
      kind: 'dm',
      unread: true,
      status: 'open',
      lastMessage: { text: '¿Abren el domingo?', direction: 'in' },
    });
    expect(conversation.window.open).toBe(true);
    const summary = await api(owner, 'GET', `/organizations/${orgId}/inbox/summary`);
    expect(summary.body.data.unreadCount).toBe(1);

    const reply = { text: 'Yes, from 10 to 4.', clientKey: 'draft-corner-1' };
    const [a, b] = await Promise.all([
      api(
        owner,
        'POST',
        `/organizations/${orgId}/inbox/conversations/${conversation.id}/messages`,
        reply,
      ),
      api(
        owner,
        'POST',
        `/organizations/${orgId}/inbox/conversations/${conversation.id}/messages`,
        reply,
      ),
    ]);
    expect(a.status).toBeLessThan(300);
    expect(b.status).toBeLessThan(300);
    expect(a.body.data.message.id).toBe(b.body.data.message.id);
    const sent = await emu(owner, `inbox/sent?account=${pageId}`);
    expect(sent.messages.filter((m: any) => m.text === reply.text)).toHaveLength(1);

    // The echo of our reply comes back by webhook and merges into the same message.
    const thread = await eventually(
      () => api(owner, 'GET', `/organizations/${orgId}/inbox/conversations/${conversation.id}`),
      (r) => r.body.data.messages.some((m: any) => m.direction === 'out' && m.delivery === 'sent'),
    );
    await sleep(500);
    const again = await api(
      owner,
      'GET',
      `/organizations/${orgId}/inbox/conversations/${conversation.id}`,
    );
    expect(again.body.data.messages.filter((m: any) => m.text === reply.text)).toHaveLength(1);
    expect(thread.body.data.messages.map((m: any) => m.direction)).toEqual(['in', 'out']);

    // Done clears it; the customer writing again reopens it.
    const doneRes = await api(
      owner,
      'PATCH',
      `/organizations/${orgId}/inbox/conversations/${conversation.id}`,
      {
        status: 'done',
      },
    );
    expect(doneRes.status).toBe(200);
    const open = await api(owner, 'GET', `/organizations/${orgId}/inbox/conversations`);
    expect(open.body.data.conversations).toHaveLength(0);
    await emu(owner, 'inbox/messages', { to: pageId, fromName: 'Rosa Díaz', text: 'Gracias!' });
    const reopened = await eventually(
      () => api(owner, 'GET', `/organizations/${orgId}/inbox/conversations`),
      (r) =>
        r.body.data.conversations[0]?.status === 'open' && r.body.data.conversations[0]?.unread,
    );
    // Her next message, unnamed again by its webhook, keeps her name.
    expect(reopened.body.data.conversations[0].title).toBe('Rosa Díaz');
  });
});

describe('X inbox, end to end through the sandbox', () => {
  it('registers the webhook on connect, receives a DM by the Activity API, and answers it once', async () => {
    const { owner, orgId } = await createOrg(t.app, 'kiosk.x@example.com', 'Kiosk');
    // X bills every item read: its inbox runs under the organization's X switch.
    await api(owner, 'PUT', `/organizations/${orgId}/analytics/settings`, {
      xEnabled: true,
      xMonthlyReadBudget: 1000,
    });
    const done = await connectThroughSandbox(t.app, owner, 'x', orgId, { account: 'kiosk_news' });
    expect(new URL(done).searchParams.get('connected')).toBeTruthy();
    await eventually(
      () => api(owner, 'GET', `/organizations/${orgId}/inbox/summary`),
      (r) => r.body.data.accounts.some((a: any) => a.lastSyncedAt),
    );
    const summary = await api(owner, 'GET', `/organizations/${orgId}/inbox/summary`);
    expect(summary.body.data.accounts[0]).toMatchObject({
      platform: 'X',
      dm: true,
      syncError: null,
    });

    await emu(
      owner,
      'inbox/dm',
      { account: 'kiosk_news', fromName: 'Ines', text: 'Still open?' },
      'x',
    );
    const list = await eventually(
      () => api(owner, 'GET', `/organizations/${orgId}/inbox/conversations?tab=X`),
      (r) => r.body.data.conversations.length === 1,
    );
    const conversation = list.body.data.conversations[0];
    expect(conversation).toMatchObject({ platform: 'X', kind: 'dm', unread: true });
    expect(conversation.capabilities.replyMaxLength).toBe(10_000);

    const reply = { text: 'Until eight tonight.', clientKey: 'draft-kiosk-1' };
    const first = await api(
      owner,
      'POST',
      `/organizations/${orgId}/inbox/conversations/${conversation.id}/messages`,
      reply,
    );
    const second = await api(
      owner,
      'POST',
      `/organizations/${orgId}/inbox/conversations/${conversation.id}/messages`,
      reply,
    );
    expect(first.body.data.message.delivery).toBe('sent');
    expect(second.body.data.message.id).toBe(first.body.data.message.id);
    const dms = await emu(owner, 'inbox/dms?account=kiosk_news', undefined, 'x');
    expect(dms.dms.filter((d: any) => d.text === reply.text)).toHaveLength(1);
  });
});
