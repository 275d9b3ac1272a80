import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import { SNAPSHOT_CHECKPOINTS, SNAPSHOT_QUEUE, snapshotDueAt } from './analytics-queue.js';

/**
 * Moving a network sandbox's clock on (docs/analytics.md#sandbox), as an operator of
 * `npm start` does: the readings that are due by the network's time are taken by the worker's
 * snapshot job, with the figures the network gives at that age; the rest come as much sooner,
 * and another network's readings do not move.
 */
let t: TestApp;
let owner: Actor;
let orgId: string;
const HOUR = 3_600_000;

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

async function publish(platform: string, content: string) {
  const supported = await owner.call('GET', '/api/platforms/supported');
  const id = supported.body.data.platforms.find((p: { name: string }) => p.name === platform).id;
  const body = await multipart({ platformIds: JSON.stringify([id]), content, action: 'draft' });
  const created = await send(t.app, owner.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  const postId = created.json().data.post.id as string;
  const published = await owner.call(
    'PATCH',
    `/api/organizations/${orgId}/post/${postId}/publish`,
    { platforms: [platform] },
  );
  expect(published.status).toBe(200);
  const [target] = await rows<{ id: string; published_at: Date }>(
    sql`select id, published_at from post_targets where post_id = ${postId} and status = 'PUBLISHED'`,
  );
  return { id: target!.id, publishedAt: new Date(target!.published_at) };
}

/** The operator moves one network's clock, as through the sandbox's admin route. */
async function moveClock(network: string, seconds: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/sandbox/${network}/_emu/clock`,
    headers: { cookie: owner.jar.header(), origin: TEST_PUBLIC_URL },
    payload: { advance_seconds: seconds },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const readingsOf = (targetId: string) =>
  rows<{ checkpoint: string; views: number | null }>(
    sql`select checkpoint, views from post_metric_snapshots where target_id = ${targetId}
        order by taken_at`,
  );

/** When each of the target's readings still waiting is due, by checkpoint. */
async function waitingJobs(targetId: string) {
  const jobs = await rows<{ checkpoint: string; start_after: Date }>(
    sql`select data->>'checkpoint' as checkpoint, start_after from pgboss.job
        where name = ${SNAPSHOT_QUEUE} and data->>'targetId' = ${targetId} and state = 'created'`,
  );
  return new Map(jobs.map((j) => [j.checkpoint, new Date(j.start_after).getTime()]));
}

const checkpoint = (name: string) => SNAPSHOT_CHECKPOINTS.find((c) => c.name === name)!;

beforeAll(async () => {
  // The owner is an operator too: the networks' clocks are every organization's.
  t = await createTestApp(
    { ADMIN_EMAILS: 'clock@analytics.test' },
    { jobs: 'all', queues: [PUBLISH_QUEUE, SNAPSHOT_QUEUE] },
  );
  ({ owner, orgId } = await createOrg(t.app, 'clock@analytics.test', 'Clockwork Co'));
  await connectThroughSandbox(t.app, owner, 'threads', orgId);
  await connectThroughSandbox(t.app, owner, 'x', orgId);
  const on = await owner.call('PUT', `/api/organizations/${orgId}/analytics/settings`, {
    xEnabled: true,
    xMonthlyReadBudget: 100,
  });
  expect(on.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("a network sandbox's clock moved on", () => {
  it(
    'takes the readings due by the network’s time through the snapshot job, growing with it; the rest come as much sooner',
    {
      timeout: 120_000,
    },
    async () => {
      const threads = await publish('Threads', 'Watched by the clock');
      const x = await publish('X', 'On another clock');
      const xJobs = await waitingJobs(x.id);
      const threadsJobs = await waitingJobs(threads.id);
      // Sixteen readings each, all at their checkpoints after publishing: none due yet.
      expect(threadsJobs.size).toBe(SNAPSHOT_CHECKPOINTS.length);
      expect(threadsJobs.get('10m')).toBe(
        snapshotDueAt(threads.id, checkpoint('10m'), threads.publishedAt).getTime(),
      );
      expect(await readingsOf(threads.id)).toEqual([]);

      // Half an hour passes on Threads: its 10-minute reading is due, the hour's is not.
      await moveClock('threads', 1800);
      await expect
        .poll(async () => (await readingsOf(threads.id)).map((r) => r.checkpoint), {
          timeout: 30_000,
          interval: 250,
        })
        .toEqual(['10m']);

      // Seven hours in all: the 1 h and 6 h readings too, with more views than at half an hour.
      await moveClock('threads', 6.5 * 3600);
      // (The two due together are taken in whichever order the worker fetched them.)
      await expect
        .poll(async () => (await readingsOf(threads.id)).map((r) => r.checkpoint).sort(), {
          timeout: 30_000,
          interval: 250,
        })
        .toEqual(['10m', '1h', '6h'].sort());
      const views = new Map((await readingsOf(threads.id)).map((r) => [r.checkpoint, r.views]));
      expect(Number(views.get('1h'))).toBeGreaterThan(Number(views.get('10m')));
      expect(Number(views.get('6h'))).toBeGreaterThan(Number(views.get('10m')));

      // The day's reading and the later ones wait on, each seven hours sooner than it was.
      const waiting = await waitingJobs(threads.id);
      expect([...waiting.keys()].sort()).toEqual(
        SNAPSHOT_CHECKPOINTS.slice(3)
          .map((c) => c.name)
          .sort(),
      );
      for (const [name, at] of waiting) expect(at).toBe(threadsJobs.get(name)! - 7 * HOUR);

      // X's clock did not move: its readings are where they were, and none was taken.
      expect(await waitingJobs(x.id)).toEqual(xJobs);
      expect(await readingsOf(x.id)).toEqual([]);
    },
  );

  it('reads on past the end of an access token the move outlived, refreshing it once', async () => {
    const [x] = await rows<{ id: string; token: string }>(
      sql`select t.id, i.access_token_enc as token from post_targets t
          join integrations i on i.id = t.integration_id
          join platforms p on p.id = t.platform_id
          where t.organization_id = ${orgId} and p.name = 'X'`,
    );
    // X's access tokens live two hours on X's clock: three pass there.
    await moveClock('x', 3 * 3600);
    await expect
      .poll(async () => (await readingsOf(x!.id)).map((r) => r.checkpoint).sort(), {
        timeout: 30_000,
        interval: 250,
      })
      .toEqual(['10m', '1h'].sort());
    const [after] = await rows<{ token: string; stale_reason: string | null }>(
      sql`select i.access_token_enc as token, s.stale_reason from integrations i
          join post_targets t on t.integration_id = i.id
          left join analytics_account_status s on s.integration_id = i.id
          where t.id = ${x!.id}`,
    );
    expect(after!.token).not.toBe(x!.token);
    expect(after!.stale_reason).toBeNull();
  });

  it('moves nothing for a network without posts, and answers the clock as before', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/tiktok/_emu/clock',
      headers: { cookie: owner.jar.header(), origin: TEST_PUBLIC_URL },
      payload: { advance_seconds: 60 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().offset_seconds).toBe(60);
  });
});
