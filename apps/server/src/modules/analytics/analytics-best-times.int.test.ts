import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMetricSnapshots, posts, postTargets } from '../../db/schema.js';
import { seedConnectedAccount } from '../../test/analytics-seed.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';

let t: TestApp;
let owner: Actor;
let creator: Actor;
let outsider: Actor;
let orgId: string;
let otherOrgId: string;
let otherAccountId: string;
let platformIds: Record<string, string>;

const seedAccount = (organizationId: string, platform: string, name = `${platform} account`) =>
  seedConnectedAccount(t.database.db, organizationId, platformIds[platform]!, name);

/** A post published at `publishedAt`; `reading` null means it was never read. */
async function seedPost(
  organizationId: string,
  integrationId: string,
  platform: string,
  publishedAt: string,
  reading: { views: number | null; interactions: number | null } | null,
) {
  const db = t.database.db;
  const [post] = await db
    .insert(posts)
    .values({
      organizationId,
      status: 'published',
      content: 'A post',
      publishedAt: new Date(publishedAt),
    })
    .returning({ id: posts.id });
  const [target] = await db
    .insert(postTargets)
    .values({
      postId: post!.id,
      organizationId,
      platformId: platformIds[platform]!,
      integrationId,
      status: 'PUBLISHED',
      publishedAt: new Date(publishedAt),
    })
    .returning({ id: postTargets.id });
  if (reading)
    await db.insert(postMetricSnapshots).values({
      organizationId,
      postId: post!.id,
      targetId: target!.id,
      integrationId,
      checkpoint: '1h',
      takenAt: new Date(Date.parse(publishedAt) + 3_600_000),
      ...reading,
    });
}

const RANGE = 'from=2026-03-01&to=2026-03-14';
const bestTimes = (actor: Actor, org: string, query: string) =>
  actor.call('GET', `/api/organizations/${org}/analytics/best-times?${query}`);

beforeAll(async () => {
  t = await createTestApp();
  const created = await createOrg(t.app, 'owner@best-times.test', 'Timing Co');
  ({ owner, orgId } = created);
  creator = (
    await addMember(t.app, owner, orgId, 'creator@best-times.test', {
      roleId: created.roleId('ContentCreator'),
    })
  ).actor;
  ({ owner: outsider, orgId: otherOrgId } = await createOrg(
    t.app,
    'other@best-times.test',
    'Rival',
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
  otherAccountId = await seedAccount(otherOrgId, 'X');
  // Monday 23:30 and 23:45 UTC: Tuesday 08:xx in Tokyo (UTC+9).
  await seedPost(orgId, ig, 'Instagram', '2026-03-02T23:30:00Z', { views: 100, interactions: 10 });
  await seedPost(orgId, x, 'X', '2026-03-09T23:45:00Z', { views: 300, interactions: 20 });
  // Friday 05:00 UTC, read without interactions: counted, with no rate.
  await seedPost(orgId, ig, 'Instagram', '2026-03-06T05:00:00Z', {
    views: 100,
    interactions: null,
  });
  // Never read: the map does not rest on it.
  await seedPost(orgId, x, 'X', '2026-03-04T12:00:00Z', null);
  // Outside the range.
  await seedPost(orgId, x, 'X', '2026-02-20T12:00:00Z', { views: 50, interactions: 5 });
  // Another organization at the same hour: never counted.
  await seedPost(otherOrgId, otherAccountId, 'X', '2026-03-02T23:15:00Z', {
    views: 9_000,
    interactions: 900,
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /organizations/:orgId/analytics/best-times', () => {
  it("buckets by weekday and hour in the viewer's time zone: 23:30 UTC is the next morning in Tokyo", async () => {
    const res = await bestTimes(owner, orgId, `${RANGE}&timezone=Asia/Tokyo`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.timezone).toBe('Asia/Tokyo');
    expect(data.posts).toBe(3);
    expect(data.cells).toEqual([
      { weekday: 1, hour: 8, posts: 2, engagementRate: 30 / 400, interactionsPerPost: 15 },
      { weekday: 4, hour: 14, posts: 1, engagementRate: null, interactionsPerPost: null },
    ]);
    expect(data.engagementFormula).toMatch(/interactions ÷ views/);
  });

  it('uses UTC when no time zone is given, and the filters of the overview', async () => {
    const utc = await bestTimes(owner, orgId, RANGE);
    expect(utc.body.data.timezone).toBe('UTC');
    expect(
      utc.body.data.cells.map((c: { weekday: number; hour: number }) => [c.weekday, c.hour]),
    ).toEqual([
      [0, 23],
      [4, 5],
    ]);
    const onlyX = await bestTimes(owner, orgId, `${RANGE}&platformIds=${platformIds.X}`);
    expect(onlyX.body.data.posts).toBe(1);
    expect(onlyX.body.data.cells).toEqual([
      { weekday: 0, hour: 23, posts: 1, engagementRate: 20 / 300, interactionsPerPost: 20 },
    ]);
  });

  it('refuses an unknown time zone and bad ranges with a sentence', async () => {
    const zone = await bestTimes(owner, orgId, `${RANGE}&timezone=Mars/Olympus`);
    expect(zone.status).toBe(400);
    expect(zone.body.message).toMatch(/IANA name/);
    const backwards = await bestTimes(owner, orgId, 'from=2026-03-07&to=2026-03-01');
    expect(backwards.status).toBe(400);
  });

  it("needs analytics:view, and never shows another organization's posts", async () => {
    expect((await bestTimes(creator, orgId, RANGE)).status).toBe(403);
    expect((await bestTimes(outsider, orgId, RANGE)).status).toBe(403);
    const foreign = await bestTimes(owner, orgId, `${RANGE}&integrationIds=${otherAccountId}`);
    expect(foreign.status).toBe(404);
    const own = await bestTimes(outsider, otherOrgId, RANGE);
    expect(own.body.data.posts).toBe(1);
    expect(own.body.data.cells[0].interactionsPerPost).toBe(900);
  });
});
