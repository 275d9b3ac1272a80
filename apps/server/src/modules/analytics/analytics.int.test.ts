import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import { SNAPSHOT_CHECKPOINTS, SNAPSHOT_QUEUE, snapshotDueAt } from './analytics-queue.js';
import { saveXSettings } from './analytics.repository.js';

let t: TestApp;
let owner: Actor;
let orgId: string;

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

async function publishToX(content: string) {
  const supported = await owner.call('GET', '/api/platforms/supported');
  const xId = supported.body.data.platforms.find((p: { name: string }) => p.name === 'X').id;
  const body = await multipart({ platformIds: JSON.stringify([xId]), content, action: 'draft' });
  const res = await send(t.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  const post = res.json().data.post as { id: string };
  const published = await owner.call(
    'PATCH',
    `/api/organizations/${orgId}/post/${post.id}/publish`,
    {
      platforms: ['X'],
    },
  );
  expect(published.status).toBe(200);
  const [target] = await rows<{ id: string }>(
    sql`select id from post_targets where post_id = ${post.id} and status = 'PUBLISHED'`,
  );
  return target!.id;
}

const advance = (seconds: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/sandbox/x/_emu/clock',
    headers: { cookie: owner.jar.header() },
    payload: { advance_seconds: seconds },
  });

beforeAll(async () => {
  // The owner also moves the networks' clocks, which every organization shares: an operator.
  t = await createTestApp(
    { ADMIN_EMAILS: 'analytics@x.test' },
    { jobs: 'all', queues: [PUBLISH_QUEUE, SNAPSHOT_QUEUE] },
  );
  ({ owner, orgId } = await createOrg(t.app, 'analytics@x.test', 'Analytics Co'));
  await connectThroughSandbox(t.app, owner, 'x', orgId);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('X analytics collection', () => {
  it('schedules snapshots on publishing, reads nothing until X is on, then stops at the budget', async () => {
    const targetId = await publishToX('Counting views');

    // One pg-boss job per checkpoint, due after publishing.
    const jobs = await rows<{ checkpoint: string; start_after: string }>(
      sql`select data->>'checkpoint' as checkpoint, start_after from pgboss.job
          where name = ${SNAPSHOT_QUEUE} and data->>'targetId' = ${targetId}`,
    );
    expect(jobs.map((j) => j.checkpoint).sort()).toEqual(
      SNAPSHOT_CHECKPOINTS.map((c) => c.name).sort(),
    );
    // Each at its checkpoint's own time after the publication, spread by target.
    const [target] = await rows<{ published_at: string }>(
      sql`select published_at from post_targets where id = ${targetId}`,
    );
    const publishedAt = new Date(target!.published_at);
    for (const job of jobs) {
      const checkpoint = SNAPSHOT_CHECKPOINTS.find((c) => c.name === job.checkpoint)!;
      expect(new Date(job.start_after).getTime()).toBe(
        snapshotDueAt(targetId, checkpoint, publishedAt).getTime(),
      );
    }

    // X bills reads: off by default, nothing is asked.
    expect(await t.runtime.analytics.collectSnapshot({ targetId, checkpoint: '1h' })).toBe('X_OFF');

    await saveXSettings(t.database.db, orgId, { enabled: true, monthlyReadBudget: 2 });
    // X access tokens live 2 h: the clock moves less than that here.
    await advance(600);
    expect(await t.runtime.analytics.collectSnapshot({ targetId, checkpoint: '1h' })).toBe(
      'COLLECTED',
    );
    await advance(3000);
    expect(await t.runtime.analytics.collectSnapshot({ targetId, checkpoint: '6h' })).toBe(
      'COLLECTED',
    );
    // The budget of two reads is spent: the third is not made, and the account says why.
    expect(await t.runtime.analytics.collectSnapshot({ targetId, checkpoint: '24h' })).toBe(
      'BUDGET_SPENT',
    );

    const snaps = await rows<{ views: string; saves: string; reach: string | null }>(
      sql`select views, saves, reach from post_metric_snapshots where target_id = ${targetId} order by taken_at`,
    );
    expect(snaps).toHaveLength(2);
    expect(Number(snaps[1]!.views)).toBeGreaterThan(Number(snaps[0]!.views));
    // X gives no reach: absent, never 0.
    expect(snaps.every((s) => s.reach === null)).toBe(true);
    const [status] = await rows<{ stale_reason: string }>(
      sql`select stale_reason from analytics_account_status where organization_id = ${orgId}`,
    );
    expect(status!.stale_reason).toMatch(/budget of 2 X reads/);
  });
});

describe('X batch lookup', () => {
  it('reads every published X post of an account in one GET /2/tweets?ids= request, one budget read each', async () => {
    await saveXSettings(t.database.db, orgId, { enabled: true, monthlyReadBudget: 100 });
    const a = await publishToX('Batch one');
    const b = await publishToX('Batch two');
    const [before] = await rows<{ used: number }>(
      sql`select x_reads_used as used from analytics_settings where organization_id = ${orgId}`,
    );
    await t.app.inject({
      method: 'DELETE',
      url: '/api/sandbox/x/_emu/calls',
      headers: { cookie: owner.jar.header() },
    });

    const counts = await t.runtime.analytics.collectNow(orgId);
    const published = await rows<{ n: number }>(
      sql`select count(*)::int as n from post_targets where organization_id = ${orgId} and status = 'PUBLISHED'`,
    );
    expect(counts.targets).toBe(published[0]!.n);
    expect(counts.collected).toBe(published[0]!.n);

    const calls = (
      await t.app.inject({
        method: 'GET',
        url: '/api/sandbox/x/_emu/calls?path=/2/tweets',
        headers: { cookie: owner.jar.header() },
      })
    ).json().calls as Array<{ method: string; path: string; query: Record<string, string> }>;
    const lookups = calls.filter((c) => c.method === 'GET' && c.path === '/2/tweets');
    // One request for all of them (all under 30 days: one group), none post by post.
    expect(lookups).toHaveLength(1);
    expect(String(lookups[0]!.query.ids).split(',')).toEqual(
      expect.arrayContaining(
        (
          await rows<{ external_id: string }>(
            sql`select external_id from post_targets where id in (${a}, ${b})`,
          )
        ).map((r) => r.external_id),
      ),
    );
    expect(calls.some((c) => /^\/2\/tweets\/\d+$/.test(c.path))).toBe(false);
    const [after] = await rows<{ used: number }>(
      sql`select x_reads_used as used from analytics_settings where organization_id = ${orgId}`,
    );
    // One read per post, and one for the account's followers.
    expect(after!.used - before!.used).toBe(published[0]!.n + 1);
    const snaps = await rows<{ n: number }>(
      sql`select count(*)::int as n from post_metric_snapshots
          where target_id in (${a}, ${b}) and checkpoint = 'manual'`,
    );
    expect(snaps[0]!.n).toBe(2);
  });

  it('reads none of them when the budget cannot cover the whole batch', async () => {
    const [settings] = await rows<{ used: number }>(
      sql`select x_reads_used as used from analytics_settings where organization_id = ${orgId}`,
    );
    // Room for two reads, three posts: the batch is not asked for; the account's read is.
    await saveXSettings(t.database.db, orgId, {
      enabled: true,
      monthlyReadBudget: settings!.used + 2,
    });
    const snapsBefore = await rows<{ n: number }>(
      sql`select count(*)::int as n from post_metric_snapshots where organization_id = ${orgId}`,
    );
    const counts = await t.runtime.analytics.collectNow(orgId);
    expect(counts).toMatchObject({ collected: 0, accounts: 1 });
    const snapsAfter = await rows<{ n: number }>(
      sql`select count(*)::int as n from post_metric_snapshots where organization_id = ${orgId}`,
    );
    expect(snapsAfter[0]!.n).toBe(snapsBefore[0]!.n);
    const [used] = await rows<{ used: number }>(
      sql`select x_reads_used as used from analytics_settings where organization_id = ${orgId}`,
    );
    expect(used!.used).toBe(settings!.used + 1);
    // With nothing left, the account's read stops too and the account says why.
    await t.runtime.analytics.collectNow(orgId);
    await t.runtime.analytics.collectNow(orgId);
    const [status] = await rows<{ stale_reason: string }>(
      sql`select stale_reason from analytics_account_status where organization_id = ${orgId}`,
    );
    expect(status!.stale_reason).toMatch(/X reads is spent/);
  });
});
