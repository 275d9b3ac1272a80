import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inboxConversations, inboxSyncState } from '../../db/schema.js';
import { PlatformError } from '../../platforms/errors.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { dm, FakeInbox, seedAccount, useFakeInbox } from '../../test/inbox-fake.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { INBOX_IMPORT_QUEUE } from './inbox-queue.js';

let t: TestApp;
let fake: FakeInbox;
beforeAll(async () => {
  t = await createTestApp(
    { INBOX_POLL_MINUTES_X: '30' },
    { jobs: 'all', queues: [INBOX_IMPORT_QUEUE] },
  );
}, 60_000);
afterAll(() => t?.close());
beforeEach(() => {
  fake = new FakeInbox();
  fake.caps = { ...fake.caps, dmWindowHours: null, pollIntervalMinutes: 15 };
  useFakeInbox(t, fake, 'x');
});

const stateOf = async (integrationId: string) =>
  (
    await t.database.db
      .select()
      .from(inboxSyncState)
      .where(eq(inboxSyncState.integrationId, integrationId))
  )[0];
const minutesFromNow = (d: Date | null | undefined) =>
  Math.round(((d?.getTime() ?? 0) - Date.now()) / 60_000);
let n = 0;
async function account() {
  n++;
  const { orgId, owner } = await createOrg(t.app, `sync${n}@example.com`, `Sync ${n}`);
  return { orgId, owner, integration: await seedAccount(t.database.db, orgId, 'X', `x-${n}`) };
}

describe('inbox polling and subscriptions', () => {
  it('imports a newly connected account and subscribes it, through the import job', async () => {
    const { orgId, owner } = await createOrg(t.app, 'connect@example.com', 'Connect');
    fake.subscribed = false;
    fake.pollAnswers = [
      { events: [dm('x1', 'dmc-1', '2026-04-01T10:00:00Z', 'Hi')], cursor: { since: 'x1' } },
    ];
    const done = await connectThroughSandbox(t.app, owner, 'x', orgId);
    expect(new URL(done).searchParams.get('connected')).toBe('X');
    for (let i = 0; i < 100 && fake.polls.length === 0; i++) await sleep(100);
    for (let i = 0; i < 50; i++) {
      const [row] = await t.database.db
        .select()
        .from(inboxSyncState)
        .where(eq(inboxSyncState.organizationId, orgId));
      if (row?.lastSyncedAt) break;
      await sleep(100);
    }
    expect(fake.polls).toEqual([null]);
    expect(fake.subscribeCalls).toBe(1);
    const conversations = await t.database.db
      .select()
      .from(inboxConversations)
      .where(eq(inboxConversations.organizationId, orgId));
    expect(conversations).toMatchObject([{ platform: 'X', threadExternalId: 'dmc-1' }]);
  });

  it('polls from the stored cursor at the configured interval and waits as long as the network asks', async () => {
    const { integration } = await account();
    const sync = t.runtime.inbox.sync;
    fake.pollAnswers = [
      { events: [dm('p1', 'thread-p', '2026-04-02T10:00:00Z', 'One')], cursor: { since: 'p1' } },
      {
        events: [dm('p2', 'thread-p', '2026-04-02T10:01:00Z', 'Two')],
        cursor: { since: 'p2' },
        retryAfter: new Date(Date.now() + 120 * 60_000),
      },
    ];
    expect(await sync.pollAccount(integration.id)).toBe('POLLED');
    let state = await stateOf(integration.id);
    expect(state!.cursor).toEqual({ since: 'p1' });
    // INBOX_POLL_MINUTES_X=30 over the adapter's 15.
    expect(minutesFromNow(state!.nextPollAt)).toBe(30);
    // Not due yet: the periodic job leaves it alone.
    await sync.pollDue();
    expect(fake.polls).toEqual([null]);
    await t.database.db
      .update(inboxSyncState)
      .set({ nextPollAt: sql`now() - interval '1 minute'` })
      .where(eq(inboxSyncState.integrationId, integration.id));
    await sync.pollDue();
    expect(fake.polls).toEqual([null, { since: 'p1' }]);
    state = await stateOf(integration.id);
    expect(state!.cursor).toEqual({ since: 'p2' });
    expect(minutesFromNow(state!.nextPollAt)).toBe(120);
    expect(state!.syncError).toBeNull();
  });

  it('records a sentence, never a crash, when the network refuses; a revoked token asks to reconnect', async () => {
    const { integration, owner, orgId } = await account();
    const sync = t.runtime.inbox.sync;
    fake.pollAnswers = [
      new PlatformError('rate_limited', 'X said: Too Many Requests.', { retryAfterSeconds: 3600 }),
      new PlatformError('reauth', 'X said: the token was revoked.'),
    ];
    expect(await sync.pollAccount(integration.id)).toBe('REFUSED');
    let state = await stateOf(integration.id);
    expect(state!.syncError).toBe('X said: Too Many Requests.');
    expect(minutesFromNow(state!.nextPollAt)).toBe(60);
    expect(await sync.pollAccount(integration.id)).toBe('REFUSED');
    state = await stateOf(integration.id);
    expect(state!.syncError).toMatch(
      /^Reconnect Acme Page on X in Settings: X said: the token was revoked\.$/,
    );
    const summary = await owner.call('GET', `/api/organizations/${orgId}/inbox/summary`);
    expect(
      summary.body.data.accounts.find(
        (a: { integrationId: string }) => a.integrationId === integration.id,
      ),
    ).toMatchObject({
      syncError: state!.syncError,
    });
  });

  it('checks the webhook subscription and subscribes again when it lapsed', async () => {
    const { integration } = await account();
    const sync = t.runtime.inbox.sync;
    fake.subscribed = true;
    expect((await sync.checkSubscriptions())[integration.id]).toBe('SUBSCRIBED');
    fake.subscribed = false;
    expect(await sync.ensureSubscribed(integration.id)).toBe('RESUBSCRIBED');
    expect(fake.subscribeCalls).toBeGreaterThanOrEqual(1);
    fake.subscribed = false;
    fake.subscribe = async () => {
      throw new PlatformError('bad_request', 'X said: the app lacks the subscription permission.');
    };
    expect(await sync.ensureSubscribed(integration.id)).toBe('REFUSED');
    const state = await stateOf(integration.id);
    expect(state!.subscribed).toBe(false);
    expect(state!.syncError).toMatch(/not pushed to Herald.*lacks the subscription permission/);
  });
});
