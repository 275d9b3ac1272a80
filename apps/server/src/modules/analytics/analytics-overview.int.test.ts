import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountMetricDays,
  analyticsAccountStatus,
  postMetricSnapshots,
  posts,
  postTargets,
} from '../../db/schema.js';
import { seedConnectedAccount } from '../../test/analytics-seed.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';

let t: TestApp;
let owner: Actor;
let outsider: Actor;
let orgId: string;
let otherOrgId: string;
let platformIds: Record<string, string>;
let igId: string;
let xId: string;
let otherAccountId: string;
let creator: Actor;
let manager: Actor;

const at = (iso: string) => new Date(iso);

const seedAccount = (organizationId: string, platform: string, name = `${platform} account`) =>
  seedConnectedAccount(t.database.db, organizationId, platformIds[platform]!, name);

/** A published post on one account, with its readings (`[takenAt, views, reach, interactions]`). */
async function seedPost(
  organizationId: string,
  integrationId: string,
  platform: string,
  content: string,
  publishedAt: string,
  readings: Array<[string, number | null, number | null, number | null]>,
) {
  const db = t.database.db;
  const [post] = await db
    .insert(posts)
    .values({ organizationId, status: 'published', content, publishedAt: at(publishedAt) })
    .returning({ id: posts.id });
  const [target] = await db
    .insert(postTargets)
    .values({
      postId: post!.id,
      organizationId,
      platformId: platformIds[platform]!,
      integrationId,
      accountName: `${platform} account`,
      status: 'PUBLISHED',
      publishedAt: at(publishedAt),
    })
    .returning({ id: postTargets.id });
  for (const [takenAt, views, reach, interactions] of readings)
    await db.insert(postMetricSnapshots).values({
      organizationId,
      postId: post!.id,
      targetId: target!.id,
      integrationId,
      checkpoint: '1h',
      takenAt: at(takenAt),
      views,
      reach,
      interactions,
    });
  return post!.id;
}

const overview = (actor: Actor, org: string, query: string) =>
  actor.call('GET', `/api/organizations/${org}/analytics/overview?${query}`);

const WEEK = 'from=2026-03-01&to=2026-03-07';

beforeAll(async () => {
  t = await createTestApp();
  const created = await createOrg(t.app, 'owner@analytics.test', 'Numbers Co');
  ({ owner, orgId } = created);
  ({ owner: outsider, orgId: otherOrgId } = await createOrg(
    t.app,
    'other@analytics.test',
    'Rival',
  ));
  creator = (
    await addMember(t.app, owner, orgId, 'creator@analytics.test', {
      roleId: created.roleId('ContentCreator'),
    })
  ).actor;
  manager = (
    await addMember(t.app, owner, orgId, 'manager@analytics.test', {
      roleId: created.roleId('SocialMediaManager'),
    })
  ).actor;

  const supported = await owner.call('GET', '/api/platforms/supported');
  platformIds = Object.fromEntries(
    (supported.body.data.platforms as Array<{ id: string; name: string }>).map((p) => [
      p.name,
      p.id,
    ]),
  );
  igId = await seedAccount(orgId, 'Instagram', 'Studio IG');
  xId = await seedAccount(orgId, 'X', 'Studio X');
  otherAccountId = await seedAccount(otherOrgId, 'X', 'Rival X');

  // Previous period (22–28 Feb): one Instagram post; its later reading falls in the range.
  await seedPost(orgId, igId, 'Instagram', 'Last week', '2026-02-25T09:00:00Z', [
    ['2026-02-26T09:00:00Z', 250, 100, 20],
    ['2026-03-05T09:00:00Z', 400, 150, 25],
  ]);
  // The range (1–7 March).
  await seedPost(orgId, igId, 'Instagram', 'Spring launch', '2026-03-02T10:00:00Z', [
    ['2026-03-02T11:00:00Z', 100, 80, 10],
    ['2026-03-03T10:00:00Z', 300, 200, 30],
  ]);
  await seedPost(orgId, xId, 'X', 'Thread on X', '2026-03-04T12:00:00Z', [
    ['2026-03-04T13:00:00Z', 500, null, 10],
  ]);
  await seedPost(orgId, xId, 'X', 'Not read yet', '2026-03-06T12:00:00Z', []);
  // Another organization's post, far larger: must never show up.
  await seedPost(otherOrgId, otherAccountId, 'X', 'Rival secret', '2026-03-03T12:00:00Z', [
    ['2026-03-03T13:00:00Z', 99_999, null, 9_999],
  ]);

  await t.database.db.insert(accountMetricDays).values(
    [
      ['2026-02-28', 1000],
      ['2026-03-01', 1010],
      ['2026-03-07', 1050],
    ].map(([day, followers]) => ({
      organizationId: orgId,
      integrationId: igId,
      day: day as string,
      followers: followers as number,
      collectedAt: at('2026-03-08T03:17:00Z'),
    })),
  );
  await t.database.db.insert(analyticsAccountStatus).values({
    integrationId: xId,
    organizationId: orgId,
    staleReason: 'X refused the read: rate limited.',
    staleSince: at('2026-03-06T00:00:00Z'),
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /organizations/:orgId/analytics/overview', () => {
  it('totals the range against the previous period, leaving absent metrics out', async () => {
    const res = await overview(owner, orgId, WEEK);
    expect(res.status).toBe(200);
    const { kpis, range } = res.body.data;
    expect(range).toMatchObject({ previousFrom: '2026-02-22', previousTo: '2026-02-28', days: 7 });
    // Latest readings: 300 (Instagram) + 500 (X); the unread post adds nothing.
    expect(kpis.views).toEqual({ value: 800, previous: 250, change: 2.2 });
    // X gives no reach: only Instagram's 200 counts, not a 0 for X.
    expect(kpis.reach).toEqual({ value: 200, previous: 100, change: 1 });
    expect(kpis.interactions.value).toBe(40);
    expect(kpis.engagementRate.value).toBeCloseTo(40 / 800);
    expect(kpis.engagementRate.previous).toBeCloseTo(20 / 250);
    expect(kpis.postsPublished).toEqual({ value: 3, previous: 1, change: 2 });
    // 1050 on the last day minus 1000 the day before the range; nothing grew the week before.
    expect(kpis.followersGained).toEqual({ value: 50, previous: 0, change: null });
    expect(res.body.data.engagementFormula).toMatch(/interactions ÷ views/);
  });

  it('gives the daily gains, followers, networks, top posts and stale accounts', async () => {
    const { body } = await overview(owner, orgId, `${WEEK}&sort=interactions`);
    const data = body.data;
    expect(data.daily).toHaveLength(7);
    expect(data.daily[0]).toEqual({ day: '2026-03-01', views: null, interactions: null });
    expect(data.daily[1]).toEqual({ day: '2026-03-02', views: 100, interactions: 10 });
    expect(data.daily[2]).toEqual({ day: '2026-03-03', views: 200, interactions: 20 });
    // The earlier post's second reading: 400 − 250.
    expect(data.daily[4]).toEqual({ day: '2026-03-05', views: 150, interactions: 5 });

    expect(data.followers).toEqual([
      {
        integrationId: igId,
        name: 'Studio IG',
        platform: 'Instagram',
        points: [
          { day: '2026-03-01', followers: 1010 },
          { day: '2026-03-07', followers: 1050 },
        ],
        gained: 50,
      },
    ]);
    const x = data.networks.find((n: { platform: string }) => n.platform === 'X');
    expect(x).toMatchObject({ posts: 2, views: 500, reach: null, interactions: 10 });
    expect(data.topPosts.map((p: { text: string }) => p.text)).toEqual([
      'Spring launch',
      'Thread on X',
    ]);
    const byViews = await overview(owner, orgId, `${WEEK}&sort=views`);
    expect(byViews.body.data.topPosts[0].text).toBe('Thread on X');

    const stale = data.accounts.find((a: { integrationId: string }) => a.integrationId === xId);
    expect(stale).toMatchObject({
      isStale: true,
      staleReason: 'X refused the read: rate limited.',
    });
    expect(data.status).toMatchObject({
      connectedAccounts: 2,
      publishedTargets: 4,
      hasReadings: true,
    });
    expect(JSON.stringify(body)).not.toMatch(/Rival/);
  });

  it('filters by network and account', async () => {
    const res = await overview(owner, orgId, `${WEEK}&platformIds=${platformIds.X}`);
    expect(res.body.data.kpis.views.value).toBe(500);
    // Only X: reach is absent, not 0.
    expect(res.body.data.kpis.reach.value).toBeNull();
    expect(res.body.data.followers).toEqual([]);
    const ig = await overview(owner, orgId, `${WEEK}&integrationIds=${igId}`);
    expect(ig.body.data.kpis.views.value).toBe(300);
    expect(ig.body.data.accounts.map((a: { name: string }) => a.name)).toEqual(['Studio IG']);
  });

  it('refuses bad ranges with a sentence', async () => {
    const backwards = await overview(owner, orgId, 'from=2026-03-07&to=2026-03-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toMatch(/ends before it starts/);
    const long = await overview(owner, orgId, 'from=2023-01-01&to=2026-01-01');
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/at most 2 years/);
    expect((await overview(owner, orgId, 'from=yesterday&to=2026-03-01')).status).toBe(400);
    expect((await overview(owner, orgId, 'from=2026-02-30&to=2026-03-01')).status).toBe(400);
    expect((await overview(owner, orgId, 'to=2026-03-01')).status).toBe(400);
    expect((await overview(owner, orgId, `${WEEK}&sort=likes`)).status).toBe(400);
  });

  it("answers 404 for unknown networks and another organization's accounts, without their data", async () => {
    const foreign = await overview(owner, orgId, `${WEEK}&integrationIds=${otherAccountId}`);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toMatch(/Rival/);
    const unknown = await overview(
      owner,
      orgId,
      `${WEEK}&platformIds=00000000-0000-4000-8000-000000000000`,
    );
    expect(unknown.status).toBe(404);
    expect((await overview(owner, orgId, `${WEEK}&integrationIds=not-a-uuid`)).status).toBe(400);
  });

  it('needs analytics:view and membership', async () => {
    expect((await overview(creator, orgId, WEEK)).status).toBe(403);
    expect((await overview(outsider, orgId, WEEK)).status).toBe(403);
    expect((await overview(manager, orgId, WEEK)).status).toBe(200);
    // The outsider's own organization shows only its own post.
    const own = await overview(outsider, otherOrgId, WEEK);
    expect(own.body.data.kpis.views.value).toBe(99_999);
  });
});

describe('analytics settings', () => {
  const url = () => `/api/organizations/${orgId}/analytics/settings`;

  it('reads with analytics:view and changes with org:manage', async () => {
    const initial = await manager.call('GET', url());
    expect(initial.status).toBe(200);
    expect(initial.body.data).toMatchObject({
      xEnabled: false,
      xMonthlyReadBudget: 1000,
      xReadsUsed: 0,
      xCostPerReadUsd: 0.005,
    });
    expect((await creator.call('GET', url())).status).toBe(403);

    const body = { xEnabled: true, xMonthlyReadBudget: 250 };
    expect((await manager.call('PUT', url(), body)).status).toBe(403);
    const saved = await owner.call('PUT', url(), body);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject(body);
    expect((await manager.call('GET', url())).body.data).toMatchObject(body);
    expect(
      (await owner.call('PUT', url(), { xEnabled: true, xMonthlyReadBudget: -1 })).status,
    ).toBe(400);
  });
});
