import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxSyncState } from '../../db/schema.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { X_INBOX_OFF, xInboxBudgetSpent } from './inbox-sync.js';

/**
 * X bills every mention and DM event it returns, so the inbox reads X only under the
 * organization's X switch and monthly read budget (the ones analytics uses), and asks from its
 * cursors so nothing already read is fetched, and billed, again. Real pieces: an X account
 * connected through Herald's flow, the X sandbox answering as X does, Herald's poll.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

const origin = { origin: TEST_PUBLIC_URL };

async function call(actor: Actor, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) {
  const res = await send(t.app, actor.jar, {
    method,
    url: `/api${url}`,
    headers: method === 'GET' ? {} : origin,
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() as any };
}

async function api(actor: Actor, method: 'GET' | 'PUT', url: string, payload?: object) {
  const res = await call(actor, method, url, payload);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

async function emu(actor: Actor, path: string, payload?: object) {
  const res = await send(t.app, actor.jar, {
    method: payload ? 'POST' : 'GET',
    url: `/api/sandbox/x/_emu/${path}`,
    headers: payload ? origin : {},
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as any;
}

interface BilledRead {
  path: string;
  sinceId: string | null;
  paginationToken: string | null;
  returned: string[];
}

async function connectX(name: string) {
  const { owner, orgId } = await createOrg(t.app, `${name}@example.com`, name);
  await connectThroughSandbox(t.app, owner, 'x', orgId, { account: name });
  const list = await api(owner, 'GET', `/organizations/${orgId}/integrations`);
  const x = list.data.platforms[0];
  const reads = async (): Promise<BilledRead[]> =>
    (await emu(owner, `inbox/reads?account=${x.platformAccountId}`)).reads;
  const dm = (text: string) =>
    emu(owner, 'inbox/dm', { account: x.platformAccountId, fromName: 'Cara Customer', text });
  const mention = (text: string) =>
    emu(owner, 'inbox/mention', { account: x.platformAccountId, fromName: 'Max Mention', text });
  const settings = (xEnabled: boolean, xMonthlyReadBudget: number) =>
    api(owner, 'PUT', `/organizations/${orgId}/analytics/settings`, {
      xEnabled,
      xMonthlyReadBudget,
    });
  const used = async () =>
    (await api(owner, 'GET', `/organizations/${orgId}/analytics/settings`)).data.xReadsUsed;
  const syncError = async () =>
    (
      await t.database.db
        .select()
        .from(inboxSyncState)
        .where(eq(inboxSyncState.integrationId, x.id))
    )[0]?.syncError ?? null;
  const poll = () => t.runtime.inbox.sync.pollAccount(x.id);
  return {
    owner,
    orgId,
    integrationId: x.id as string,
    reads,
    dm,
    mention,
    settings,
    used,
    syncError,
    poll,
  };
}

describe('X inbox polling under the organization’s X switch and budget', () => {
  it('makes no X call while the switch is off, and says why on the account', async () => {
    const x = await connectX('xoffshop');
    await x.dm('Hello?');
    expect(await x.poll()).toBe('SKIPPED');
    expect(await x.reads()).toEqual([]);
    expect(await x.syncError()).toBe(X_INBOX_OFF);
    // Nor is the account subscribed to X's pushed events, which X bills as reads too.
    expect(await t.runtime.inbox.sync.ensureSubscribed(x.integrationId)).toBe('SKIPPED');

    await x.settings(true, 1000);
    expect(await t.runtime.inbox.sync.ensureSubscribed(x.integrationId)).not.toBe('SKIPPED');
    expect(await x.poll()).toBe('POLLED');
    expect((await x.reads()).length).toBeGreaterThan(0);
    expect(await x.syncError()).toBeNull();
  });

  it('asks again from its cursors: X returns only what is new, and only that is billed', async () => {
    const x = await connectX('xcursorshop');
    await x.settings(true, 1000);
    const first = await x.dm('First question');
    expect(await x.poll()).toBe('POLLED');
    const firstReads = await x.reads();
    expect(firstReads.flatMap((r) => r.returned)).toEqual([first.id]);
    // A DM event is billed $0.010, two post reads of the budget.
    expect(await x.used()).toBe(2);

    expect(await x.poll()).toBe('POLLED');
    const second = (await x.reads()).slice(firstReads.length);
    const mentions = second.find((r) => r.path.endsWith('/mentions'))!;
    const dms = second.find((r) => r.path === '/2/dm_events')!;
    expect(mentions.returned).toEqual([]);
    // Mentions asked with no since_id only because none was ever read; DMs with a page token.
    expect(dms.paginationToken).not.toBeNull();
    expect(dms.returned).toEqual([]);
    expect(await x.used()).toBe(2);

    const later = await x.dm('Second question');
    const before = (await x.reads()).length;
    expect(await x.poll()).toBe('POLLED');
    const third = (await x.reads()).slice(before);
    expect(third.flatMap((r) => r.returned)).toEqual([later.id]);
    expect(await x.used()).toBe(4);
  });

  it('sizes its reads to the budget left, stops when it is spent, and resumes where it stopped', async () => {
    const x = await connectX('xbudgetshop');
    const sent = [];
    for (const text of ['one', 'two', 'three', 'four', 'five']) sent.push(await x.dm(text));
    // Six reads: three DM events at two reads each.
    await x.settings(true, 6);
    expect(await x.poll()).toBe('POLLED');
    const firstRun = (await x.reads()).flatMap((r) => r.returned);
    expect(firstRun).toHaveLength(3);
    expect(await x.used()).toBe(6);

    const calls = (await x.reads()).length;
    expect(await x.poll()).toBe('SKIPPED');
    expect((await x.reads()).length).toBe(calls);
    expect(await x.syncError()).toBe(xInboxBudgetSpent(6));

    await x.settings(true, 100);
    expect(await x.poll()).toBe('POLLED');
    const all = (await x.reads()).flatMap((r) => r.returned);
    expect([...all].sort()).toEqual(sent.map((d) => d.id as string).sort());
    expect(await x.used()).toBe(10);
  });
});

describe('X items in the inbox', () => {
  it('offers no Like on X, and the like route refuses it with a sentence saying why', async () => {
    const x = await connectX('xlikeshop');
    await x.settings(true, 1000);
    await x.mention('what do you think?');
    expect(await x.poll()).toBe('POLLED');
    const list = await api(x.owner, 'GET', `/organizations/${x.orgId}/inbox/conversations`);
    const conversation = list.data.conversations[0];
    expect(conversation.capabilities).toMatchObject({ like: false, reply: true });
    const base = `/organizations/${x.orgId}/inbox/conversations/${conversation.id}`;
    const thread = await api(x.owner, 'GET', base);
    const message = thread.data.messages[0];
    const refused = await call(x.owner, 'POST', `${base}/messages/${message.id}/like`, {
      liked: true,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'X no longer lets apps like posts (it removed Likes from its API on 20 April 2026); like it on X itself.',
    );
  });
});
