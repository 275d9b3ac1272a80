import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THREADS_POST_CAP } from '../../platforms/threads/limits.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { usePostgres } from '../../test/postgres.js';
import type { PublishQueue } from './publish-queue.js';
import { Publisher } from './publisher.js';
import { SharedSlots } from './shared-slots.js';

/**
 * The caps' slots on PostgreSQL, each `SharedSlots` standing for one process (it holds its slots
 * on a session of its own): a slot held by a process that dies comes back at once, a stopping
 * process stops waiting, and a network's daily cap is counted with the visible call, so two
 * processes cannot both publish an account's last post of the day.
 */

let t: TestApp;
let owner: Actor;
let orgId: string;
const opened: SharedSlots[] = [];

function slots() {
  const database = t.database;
  if (database.kind !== 'postgres') throw new Error('Shared slots need PostgreSQL.');
  const made = new SharedSlots(database.url, t.app.log);
  opened.push(made);
  return made;
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Whether `promise` settled within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number) {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}

// First, so the server outlives the app the hooks below start and stop.
usePostgres();

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId } = await createOrg(t.app, 'slots@engine.test', 'Slots Co'));
}, 120_000);

afterAll(async () => {
  for (const made of opened) await made.close();
  await t?.close();
});

describe('slots shared by processes', () => {
  it('gives the slot of a process whose connection died to the one waiting for it', async () => {
    const dying = slots();
    const waiting = slots();
    expect(await dying.acquire('test:crash', 1)).toBeTypeOf('function');
    const next = waiting.acquire('test:crash', 1);
    expect(await settlesWithin(next, 500), 'the slot is held elsewhere').toBe(false);

    // The holder's process is killed: the database ends its session, and with it its locks.
    await rows(sql`
      select pg_terminate_backend(pid) from pg_locks
      where locktype = 'advisory' and granted
        and database = (select oid from pg_database where datname = current_database())`);
    expect(await settlesWithin(next, 5_000), 'the waiting process got the slot').toBe(true);
    expect(await next).toBeTypeOf('function');
  });

  it('stops waiting when the process stops, and gives a slot to one process at a time', async () => {
    const first = slots();
    const second = slots();
    const release = (await first.acquire('test:stop', 1))!;
    const stop = new AbortController();
    const waited = second.acquire('test:stop', 1, stop.signal);
    stop.abort();
    expect(await waited).toBeNull();

    release();
    const taken = await second.acquire('test:stop', 1);
    expect(taken).toBeTypeOf('function');
    const again = first.acquire('test:stop', 1);
    expect(await settlesWithin(again, 500)).toBe(false);
    taken!();
    expect(await again).toBeTypeOf('function');
  });
});

describe('a daily cap with two processes publishing', () => {
  it(`publishes one of two posts due at once when the account has ${THREADS_POST_CAP.posts - 1} of its ${THREADS_POST_CAP.posts} a day`, async () => {
    expect(
      await connectThroughSandbox(t.app, owner, 'threads', orgId, { account: 'Daily Threader' }),
    ).toContain('connected');
    const [integration] = await rows<{ id: string; platformId: string; account: string }>(sql`
      select i.id, i.platform_id as "platformId", coalesce(i.username, i.name) as account
      from integrations i where i.organization_id = ${orgId}`);
    const set = async (knob: string, value: number) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sandbox/threads/_emu/scenario',
        headers: { cookie: owner.jar.header() },
        payload: { account: integration!.account, knob, value },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // Herald's own count is the one tested: the sandbox's quota is out of the way, and its calls
    // are slow enough for both runs to count before either publishes.
    await set('publish_cap', 1_000_000);
    await set('latency_ms', 300);
    // The day so far: one post short of the cap (written the day before, as the plan's own
    // count of posts written a day has nothing to do with it).
    await rows(sql`
      with made as (
        insert into posts (organization_id, status, content, created_at)
        select ${orgId}, 'published', 'Earlier post ' || n, now() - interval '2 days'
        from generate_series(1, ${THREADS_POST_CAP.posts - 1}) n
        returning id)
      insert into post_targets (post_id, organization_id, platform_id, integration_id, status, published_at)
      select made.id, ${orgId}, ${integration!.platformId}, ${integration!.id}, 'PUBLISHED',
             now() - interval '1 hour'
      from made`);

    const due = async (content: string) => {
      const body = await multipart({
        integrationIds: JSON.stringify([integration!.id]),
        content,
        action: 'draft',
      });
      const res = await send(t.app, owner.jar, {
        method: 'POST',
        url: `/api/organizations/${orgId}/post`,
        headers: { ...body.headers, origin: TEST_PUBLIC_URL },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      const post = res.json().data.post as { id: string; platformPosts: Array<{ id: string }> };
      await rows(sql`update posts set status = 'publishing' where id = ${post.id}`);
      return post.platformPosts[0]!.id;
    };
    const targets = [await due('Last of the day, one'), await due('Last of the day, two')];
    const queue = { async retryAt() {} } as unknown as PublishQueue;
    const publisher = () =>
      new Publisher({
        db: t.database.db,
        networks: t.networks,
        media: t.runtime.media,
        cipher: t.cipher,
        queue,
        log: t.app.log,
        slots: slots(),
      });
    const [one, two] = [publisher(), publisher()];
    const outcomes = await Promise.all([one.run(targets[0]!), two.run(targets[1]!)]);

    expect(outcomes.sort()).toEqual(['PUBLISHED', 'RETRY_LATER']);
    const after = await rows<{ status: string; error: string | null }>(sql`
      select status, error from post_targets where id in (${targets[0]!}, ${targets[1]!})
      order by status`);
    expect(after).toEqual([
      { status: 'PUBLISHED', error: null },
      {
        status: 'READY',
        error: `Threads allows ${THREADS_POST_CAP.posts} posts a day for this account; Herald will publish this one when the window allows.`,
      },
    ]);
  });
});
