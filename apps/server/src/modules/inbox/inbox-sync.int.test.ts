import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inboxConversations, inboxSyncState } from '../../db/schema.js';
import { PlatformError } from '../../platforms/errors.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { dm, FakeInbox, seedAccount, useFakeInbox } from '../../test/inbox-fake.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { INBOX_IMPORT_QUEUE, INBOX_READ_QUEUE } from './inbox-queue.js';
import { startQueues } from '../../jobs/runtime.js';
import { inboxReadJob } from '../../jobs/inbox-sync.job.js';

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

  it('never runs two polls of one account at once: one claims it, the others skip', async () => {
    const { integration } = await account();
    const sync = t.runtime.inbox.sync;
    fake.pollDelayMs = 300;
    fake.pollAnswers = [
      { events: [dm('c1', 'thread-c', '2026-04-03T10:00:00Z', 'One')], cursor: { since: 'c1' } },
      { events: [], cursor: { since: 'c1' } },
    ];
    const outcomes = await Promise.all([
      sync.pollAccount(integration.id),
      sync.pollAccount(integration.id),
      sync.pollAccount(integration.id, { dueOnly: true }),
    ]);
    expect(fake.polls).toEqual([null]);
    // A poll asked for now finds the account BUSY; the periodic job's just skips it.
    expect(outcomes).toEqual(expect.arrayContaining(['POLLED', 'BUSY', 'SKIPPED']));
    const state = await stateOf(integration.id);
    expect(state!.cursor).toEqual({ since: 'c1' });
    expect(state!.pollClaimedUntil).toBeNull();
    // Released once done: not due for the periodic job, but an import may poll it again.
    expect(await sync.pollAccount(integration.id, { dueOnly: true })).toBe('SKIPPED');
    expect(await sync.pollAccount(integration.id)).toBe('POLLED');
    expect(fake.polls).toEqual([null, { since: 'c1' }]);
  });

  it('queues one pushed read per account however many notices arrive while it waits', async () => {
    const { integration } = await account();
    // The read queue exists, but no worker takes its jobs here: they wait.
    await startQueues(t.runtime.boss!, [inboxReadJob(t.runtime.inbox.sync)]);
    await t.runtime.inbox.queue.readAccounts([integration.id]);
    await t.runtime.inbox.queue.readAccounts([integration.id, integration.id]);
    const waiting = (await t.database.db.execute(
      sql`select count(*)::int as n from pgboss.job
          where name = ${INBOX_READ_QUEUE} and singleton_key = ${integration.id} and state = 'created'`,
    )) as unknown as { rows: Array<{ n: number }> };
    expect(waiting.rows[0]!.n).toBe(1);
  });

  it('never lets a poll that outlived its claim release a newer poll’s claim or write its cursor', async () => {
    const { integration } = await account();
    const sync = t.runtime.inbox.sync;
    fake.pollDelayMs = 600;
    fake.pollAnswers = [
      { events: [], cursor: { since: 'stale' } },
      { events: [], cursor: { since: 'live' } },
    ];
    const stale = sync.pollAccount(integration.id);
    for (let i = 0; i < 50 && fake.polls.length === 0; i++) await sleep(20);
    // The first poll's claim lapses while it still runs (as past POLL_CLAIM_MS): a second claims.
    await t.database.db
      .update(inboxSyncState)
      .set({ pollClaimedUntil: sql`now() - interval '1 minute'` })
      .where(eq(inboxSyncState.integrationId, integration.id));
    // The second poll runs long enough that a loaded machine still finds it running below.
    fake.pollDelayMs = 3000;
    const live = sync.pollAccount(integration.id);
    await stale;
    let state = await stateOf(integration.id);
    expect(state!.pollClaimedUntil).not.toBeNull();
    expect(state!.cursor).toBeNull();
    // Still held: a third poll is turned away, and a pushed read fails to be tried again later.
    expect(await sync.pollAccount(integration.id)).toBe('BUSY');
    await expect(inboxReadJob(sync).handle([{ integrationId: integration.id }])).rejects.toThrow(
      /read again after it/,
    );
    expect(await live).toBe('POLLED');
    state = await stateOf(integration.id);
    expect(state!.cursor).toEqual({ since: 'live' });
    expect(state!.pollClaimedUntil).toBeNull();
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
