import {
  AnalyticsRefreshRefusalSchema,
  AnalyticsRefreshResponseSchema,
  AnalyticsSettingsResponseSchema,
} from '@herald/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrgCast, signIn, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { SNAPSHOT_QUEUE } from './analytics-queue.js';

/**
 * "Refresh metrics" (docs/analytics.md#refresh-metrics): who may use it, what it reads, its
 * cooldown (in the database: across processes and restarts), and each organization kept to
 * its own posts and its own cooldown.
 */
let t: TestApp;
const MINUTE = 60_000;

let cast: Awaited<ReturnType<typeof createOrgCast>>;
let manager: Actor;
let ops: Actor;

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** The refresh as the browser sends it (no body), with its headers. */
async function refresh(actor: Actor, orgId: string, app = t.app) {
  const res = await send(app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/analytics/refresh`,
    headers: { origin: TEST_PUBLIC_URL },
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

/** A post published now from Herald to the organization's accounts on `platforms`. */
async function publish(actor: Actor, orgId: string, platforms: string[], content: string) {
  const supported = await actor.call('GET', '/api/platforms/supported');
  const ids = (supported.body.data.platforms as Array<{ id: string; name: string }>)
    .filter((p) => platforms.includes(p.name))
    .map((p) => p.id);
  const body = await multipart({ platformIds: JSON.stringify(ids), content, action: 'draft' });
  const created = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  const postId = created.json().data.post.id as string;
  const published = await actor.call(
    'PATCH',
    `/api/organizations/${orgId}/post/${postId}/publish`,
    { platforms },
  );
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return rows<{ id: string; platform: string }>(
    sql`select t.id, p.name as platform from post_targets t join platforms p on p.id = t.platform_id
        where t.post_id = ${postId} and t.status = 'PUBLISHED'`,
  );
}

/**
 * Lets `minutes` of an organization's cooldown pass: its last refresh moved that much into the
 * past (moving Herald's clock instead would end the members' sessions too).
 */
const letPass = (orgId: string, minutes: number) =>
  t.database.db.execute(
    sql`update analytics_settings
        set refreshed_at = refreshed_at - make_interval(mins => ${minutes})
        where organization_id = ${orgId}`,
  );

const readingsOf = async (orgId: string) =>
  (
    await rows<{ n: number }>(
      sql`select count(*)::int as n from post_metric_snapshots where organization_id = ${orgId}`,
    )
  )[0]!.n;

/** "14:05 UTC" of an instant, as the refusal's sentence writes it. */
const utcClock = (iso: string) => `${iso.slice(11, 16)} UTC`;

beforeAll(async () => {
  // The API role: readings the networks ask to wait for are queued, never run here.
  t = await createTestApp(
    { ADMIN_EMAILS: 'ops@refresh.test' },
    { jobs: 'api', queues: [SNAPSHOT_QUEUE] },
  );
  cast = await createOrgCast(t.app, 'refresh.test', 'Refresh Co');
  manager = (
    await addMember(t.app, cast.owner, cast.orgId, 'manager@refresh.test', {
      roleId: cast.roleId('SocialMediaManager'),
    })
  ).actor;
  ops = await signIn(t.app, 'ops@refresh.test', 'Olga Ops');
  await connectThroughSandbox(t.app, cast.owner, 'x', cast.orgId);
  await connectThroughSandbox(t.app, cast.owner, 'threads', cast.orgId);
  // X bills every read: the owner turns X metrics on, with a budget.
  const on = await cast.owner.call('PUT', `/api/organizations/${cast.orgId}/analytics/settings`, {
    xEnabled: true,
    xMonthlyReadBudget: 100,
  });
  expect(on.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('POST /organizations/:orgId/analytics/refresh', () => {
  it('is for members who manage the organization: creators, managers without it and outsiders are refused', async () => {
    await publish(cast.owner, cast.orgId, ['X', 'Threads'], 'Who may refresh');
    for (const actor of [cast.creator, cast.support, manager]) {
      const res = await refresh(actor, cast.orgId);
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/Your role does not allow this/);
    }
    const outsider = await refresh(cast.outsider, cast.orgId);
    expect(outsider.status).toBe(403);
    expect(outsider.body.message).toBe('You are not a member of this organization.');
    // Nothing was read, and the cooldown was not started by a refusal.
    expect(await readingsOf(cast.orgId)).toBe(0);
    const settings = await cast.owner.call(
      'GET',
      `/api/organizations/${cast.orgId}/analytics/settings`,
    );
    expect(AnalyticsSettingsResponseSchema.parse(settings.body).data).toMatchObject({
      refreshedAt: null,
      nextRefreshAt: null,
    });
  });

  it('reads every recent post and account now, and says when it may be used again', async () => {
    const before = Date.now();
    const res = await refresh(cast.owner, cast.orgId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = AnalyticsRefreshResponseSchema.parse(res.body).data;
    // One post on two networks: two targets, both read; both accounts' figures read.
    expect(data).toMatchObject({ targets: 2, collected: 2, queued: 0, accounts: 2 });
    const refreshedAt = Date.parse(data.refreshedAt);
    expect(refreshedAt).toBeGreaterThanOrEqual(before);
    expect(Date.parse(data.nextAllowedAt) - refreshedAt).toBe(15 * MINUTE);
    const readings = await rows<{ checkpoint: string; taken_at: Date }>(
      sql`select checkpoint, taken_at from post_metric_snapshots where organization_id = ${cast.orgId}`,
    );
    expect(readings.map((r) => r.checkpoint)).toEqual(['manual', 'manual']);
    // The screen learns the same times from the settings.
    const settings = await cast.owner.call(
      'GET',
      `/api/organizations/${cast.orgId}/analytics/settings`,
    );
    expect(AnalyticsSettingsResponseSchema.parse(settings.body).data).toMatchObject({
      refreshedAt: data.refreshedAt,
      nextRefreshAt: data.nextAllowedAt,
    });
  });

  it('refuses a refresh within 15 minutes with 429, Retry-After and a sentence saying when', async () => {
    await letPass(cast.orgId, 5);
    const settings = await cast.owner.call(
      'GET',
      `/api/organizations/${cast.orgId}/analytics/settings`,
    );
    const { refreshedAt, nextRefreshAt } = AnalyticsSettingsResponseSchema.parse(
      settings.body,
    ).data;
    const readings = await readingsOf(cast.orgId);

    const res = await refresh(cast.owner, cast.orgId);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('RATE_LIMITED');
    expect(res.body.message).toBe(
      `Metrics were last refreshed at ${utcClock(refreshedAt!)}, and can be refreshed once every 15 minutes. You can refresh again at ${utcClock(nextRefreshAt!)} (in 10 minutes).`,
    );
    const details = AnalyticsRefreshRefusalSchema.parse(res.body.details);
    expect(details.nextAllowedAt).toBe(nextRefreshAt);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBe(details.retryAfterSeconds);
    // Ten minutes are left, give or take the test's own seconds.
    expect(retryAfter).toBeGreaterThan(9 * 60);
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    expect(await readingsOf(cast.orgId)).toBe(readings);

    // Once the cooldown is over, it reads again.
    await letPass(cast.orgId, 10);
    const again = await refresh(cast.owner, cast.orgId);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(AnalyticsRefreshResponseSchema.parse(again.body).data.collected).toBe(2);
    expect(await readingsOf(cast.orgId)).toBe(readings + 2);
  });

  it('keeps each organization to its own posts and its own cooldown', async () => {
    // The other organization has an account and a post of its own.
    await connectThroughSandbox(t.app, cast.outsider, 'threads', cast.otherOrgId);
    const [other] = await publish(cast.outsider, cast.otherOrgId, ['Threads'], 'Elsewhere');
    const ours = await readingsOf(cast.orgId);

    // This organization just refreshed; the other one is not held back by it.
    const res = await refresh(cast.outsider, cast.otherOrgId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(AnalyticsRefreshResponseSchema.parse(res.body).data).toMatchObject({
      targets: 1,
      collected: 1,
      accounts: 1,
    });
    const theirs = await rows<{ target_id: string }>(
      sql`select target_id from post_metric_snapshots where organization_id = ${cast.otherOrgId}`,
    );
    expect(theirs.map((r) => r.target_id)).toEqual([other!.id]);
    expect(await readingsOf(cast.orgId)).toBe(ours);
    // Its cooldown is its own too: the first organization's is still running, nothing more.
    expect((await refresh(cast.outsider, cast.otherOrgId)).status).toBe(429);
    expect((await refresh(cast.owner, cast.orgId)).status).toBe(429);
  });

  it("stays within X's monthly budget: X posts are not read when it cannot cover them", async () => {
    await letPass(cast.orgId, 15);
    const [used] = await rows<{ used: number }>(
      sql`select x_reads_used as used from analytics_settings where organization_id = ${cast.orgId}`,
    );
    // No read left this month.
    await cast.owner.call('PUT', `/api/organizations/${cast.orgId}/analytics/settings`, {
      xEnabled: true,
      xMonthlyReadBudget: used!.used,
    });
    const res = await refresh(cast.owner, cast.orgId);
    expect(res.status).toBe(200);
    // Threads' post and account are read; X's are not, and are not queued either.
    expect(AnalyticsRefreshResponseSchema.parse(res.body).data).toMatchObject({
      targets: 2,
      collected: 1,
      queued: 0,
      accounts: 1,
    });
    const [after] = await rows<{ used: number }>(
      sql`select x_reads_used as used from analytics_settings where organization_id = ${cast.orgId}`,
    );
    expect(after!.used).toBe(used!.used);
    await cast.owner.call('PUT', `/api/organizations/${cast.orgId}/analytics/settings`, {
      xEnabled: true,
      xMonthlyReadBudget: 100,
    });
  });

  it('queues a reading the network asks to wait for, for the end of the wait', async () => {
    await letPass(cast.orgId, 15);
    // Threads answers the next call with a rate limit.
    const account = cast.owner.email.replace(/\W+/g, '_');
    const knob = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/threads/_emu/scenario',
      headers: { cookie: cast.owner.jar.header(), origin: TEST_PUBLIC_URL },
      payload: { account, knob: 'rate_limit_once', on: true },
    });
    expect(knob.statusCode, knob.body).toBe(200);
    const res = await refresh(cast.owner, cast.orgId);
    expect(res.status).toBe(200);
    // X is read; Threads' post waits for the end of the back-off, and its account is not asked.
    expect(AnalyticsRefreshResponseSchema.parse(res.body).data).toMatchObject({
      targets: 2,
      collected: 1,
      queued: 1,
      accounts: 1,
    });
    const [status] = await rows<{ backoff_until: Date; target_id: string }>(
      sql`select s.backoff_until, t.id as target_id
          from analytics_account_status s
          join post_targets t on t.integration_id = s.integration_id
          where s.organization_id = ${cast.orgId} and s.backoff_until is not null`,
    );
    const queued = await rows<{ start_after: Date }>(
      sql`select start_after from pgboss.job
          where name = ${SNAPSHOT_QUEUE} and data->>'targetId' = ${status!.target_id}
            and data->>'checkpoint' = 'manual'`,
    );
    expect(queued.map((j) => new Date(j.start_after).getTime())).toEqual([
      new Date(status!.backoff_until).getTime(),
    ]);
  });

  it('leaves out posts older than the 90 days the schedule reads, which the operator still can', async () => {
    await letPass(cast.orgId, 15);
    const [old] = await publish(cast.owner, cast.orgId, ['Threads'], 'From long ago');
    await t.database.db.execute(
      sql`update post_targets set published_at = now() - interval '100 days' where id = ${old!.id}`,
    );
    await t.database.db.execute(
      sql`update analytics_account_status set backoff_until = null where organization_id = ${cast.orgId}`,
    );
    const res = await refresh(cast.owner, cast.orgId);
    expect(res.status).toBe(200);
    expect(AnalyticsRefreshResponseSchema.parse(res.body).data).toMatchObject({
      targets: 2,
      collected: 2,
    });
    const collect = await ops.call('POST', '/api/admin/analytics/collect', {
      organizationId: cast.orgId,
    });
    expect(collect.status).toBe(200);
    expect(collect.body.data).toMatchObject({ targets: 3, collected: 3 });
    // The operator's collect is not the organization's refresh: no cooldown started or moved.
    const settings = await cast.owner.call(
      'GET',
      `/api/organizations/${cast.orgId}/analytics/settings`,
    );
    expect(settings.body.data.refreshedAt).toBe(
      AnalyticsRefreshResponseSchema.parse(res.body).data.refreshedAt,
    );
  });

  it('keeps the cooldown in the database: another process refuses too, and of two at once one refreshes', async () => {
    const other = await createTestApp({}, { database: t.database });
    try {
      // The refresh of the test before, seen from a process that did not make it.
      const refused = await refresh(cast.owner, cast.orgId, other.app);
      expect(refused.status).toBe(429);

      await letPass(cast.orgId, 15);
      const both = await Promise.all([
        refresh(cast.owner, cast.orgId),
        refresh(cast.owner, cast.orgId, other.app),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 429]);
    } finally {
      await other.close();
    }
  });
});
