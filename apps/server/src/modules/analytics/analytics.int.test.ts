import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import { SNAPSHOT_CHECKPOINTS, SNAPSHOT_QUEUE } from './analytics-queue.js';
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
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE, SNAPSHOT_QUEUE] });
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
    const jobs = await rows<{ checkpoint: string; start_after: Date }>(
      sql`select data->>'checkpoint' as checkpoint, start_after from pgboss.job
          where name = ${SNAPSHOT_QUEUE} and data->>'targetId' = ${targetId}`,
    );
    expect(jobs.map((j) => j.checkpoint).sort()).toEqual(
      SNAPSHOT_CHECKPOINTS.map((c) => c.name).sort(),
    );

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
