import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMetricSnapshots, posts, postTargets } from '../../db/schema.js';
import { seedConnectedAccount } from '../../test/analytics-seed.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

let t: TestApp;
let owner: Actor;
let creator: Actor;
let orgId: string;
let emptyOwner: Actor;
let emptyOrgId: string;
let platformIds: Record<string, string>;

const seedAccount = (organizationId: string, platform: string, name = `${platform} account`) =>
  seedConnectedAccount(t.database.db, organizationId, platformIds[platform]!, name);

/** A post published `ago` days back, read an hour later with these figures. */
async function seedReadPost(
  organizationId: string,
  integrationId: string,
  platform: string,
  ago: number,
  reading: { views: number | null; reach: number | null; interactions: number | null },
) {
  const db = t.database.db;
  const publishedAt = daysAgo(ago);
  const [post] = await db
    .insert(posts)
    .values({ organizationId, status: 'published', content: 'A post', publishedAt })
    .returning({ id: posts.id });
  const [target] = await db
    .insert(postTargets)
    .values({
      postId: post!.id,
      organizationId,
      platformId: platformIds[platform]!,
      integrationId,
      status: 'PUBLISHED',
      publishedAt,
    })
    .returning({ id: postTargets.id });
  await db.insert(postMetricSnapshots).values({
    organizationId,
    postId: post!.id,
    targetId: target!.id,
    integrationId,
    checkpoint: '1h',
    takenAt: new Date(publishedAt.getTime() + 3_600_000),
    ...reading,
  });
}

const dashboard = (actor: Actor, org: string) =>
  actor.call('GET', `/api/organizations/${org}/dashboard`);

beforeAll(async () => {
  t = await createTestApp();
  const created = await createOrg(t.app, 'owner@dash-engagement.test', 'Rate Co');
  ({ owner, orgId } = created);
  creator = (
    await addMember(t.app, owner, orgId, 'creator@dash-engagement.test', {
      roleId: created.roleId('ContentCreator'),
    })
  ).actor;
  ({ owner: emptyOwner, orgId: emptyOrgId } = await createOrg(
    t.app,
    'empty@dash-engagement.test',
    'Quiet Co',
  ));
  const supported = await owner.call('GET', '/api/platforms/supported');
  platformIds = Object.fromEntries(
    (supported.body.data.platforms as Array<{ id: string; name: string }>).map((p) => [
      p.name,
      p.id,
    ]),
  );
  const ig = await seedAccount(orgId, 'Instagram');
  const x = await seedAccount(orgId, 'X');
  // Last 30 days: 60 interactions over 1000 views (X) + 500 reach (TikTok-like: no views).
  await seedReadPost(orgId, x, 'X', 3, { views: 1000, reach: null, interactions: 40 });
  await seedReadPost(orgId, ig, 'Instagram', 10, { views: null, reach: 500, interactions: 20 });
  // A post without interactions counts nowhere (left out, not a 0).
  await seedReadPost(orgId, ig, 'Instagram', 12, { views: 900, reach: 700, interactions: null });
  // The 30 days before: 10 ÷ 500.
  await seedReadPost(orgId, ig, 'Instagram', 45, { views: 500, reach: 400, interactions: 10 });
  // The empty organization has a published post with no reading yet.
  const quiet = await seedAccount(emptyOrgId, 'X');
  await seedReadPost(emptyOrgId, quiet, 'X', 80, { views: 1, reach: null, interactions: 1 });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the dashboard engagement card', () => {
  it('gives the last 30 days against the 30 before, as the analytics overview does', async () => {
    const res = await dashboard(owner, orgId);
    expect(res.status).toBe(200);
    const { engagement } = res.body.data;
    expect(engagement.value).toBeCloseTo(60 / 1500);
    expect(engagement.previous).toBeCloseTo(10 / 500);
    expect(engagement.change).toBeCloseTo(60 / 1500 / (10 / 500) - 1);
    expect(engagement).toMatchObject({ from: dayOf(daysAgo(29)), to: dayOf(new Date()) });
    expect(engagement.formula).toBe('interactions ÷ views (or reach)');

    const overview = await owner.call(
      'GET',
      `/api/organizations/${orgId}/analytics/overview?from=${engagement.from}&to=${engagement.to}`,
    );
    expect(overview.body.data.kpis.engagementRate).toEqual({
      value: engagement.value,
      previous: engagement.previous,
      change: engagement.change,
    });
  });

  it('is null (no data) when nothing was read in either period', async () => {
    const { engagement } = (await dashboard(emptyOwner, emptyOrgId)).body.data;
    expect(engagement).toMatchObject({ value: null, previous: null, change: null });
  });

  it('is left out for a member who cannot view analytics', async () => {
    const res = await dashboard(creator, orgId);
    expect(res.status).toBe(200);
    expect(res.body.data.engagement).toBeNull();
  });
});
