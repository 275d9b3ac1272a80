import { ANALYTICS_EXPORT_COLUMNS, TIME_ZONE_PARAM_MESSAGE } from '@herald/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMetricSnapshots, posts, postTargets } from '../../db/schema.js';
import { seedConnectedAccount } from '../../test/analytics-seed.js';
import { createTestApp, send, type TestApp } from '../../test/app.js';
import { createOrg, type Actor } from '../../test/factories.js';
import { readCsvAs } from '../../test/spreadsheet.js';

/**
 * The analytics days are days of the zone that applies (docs/analytics.md#time-zone): a post
 * published at 23:30 UTC on 2 March is on 3 March in Paris, and so are the views read then.
 */
let t: TestApp;
let owner: Actor;
let orgId: string;

const base = () => `/api/organizations/${orgId}/analytics`;
const overview = async (query: string) => {
  const res = await owner.call('GET', `${base()}/overview?${query}`);
  expect(res.status).toBe(200);
  return res.body.data as {
    timezone: string;
    daily: Array<{ day: string; views: number | null; interactions: number | null }>;
    kpis: { postsPublished: { value: number | null }; views: { value: number | null } };
    topPosts: unknown[];
  };
};

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId } = await createOrg(t.app, 'owner@zones.test', 'Zones Co'));
  const supported = await owner.call('GET', '/api/platforms/supported');
  const xPlatform = (supported.body.data.platforms as Array<{ id: string; name: string }>).find(
    (p) => p.name === 'X',
  )!.id;
  const xId = await seedConnectedAccount(t.database.db, orgId, xPlatform, 'Zones X');
  const db = t.database.db;
  const [post] = await db
    .insert(posts)
    .values({ organizationId: orgId, status: 'published', content: 'Late in London' })
    .returning({ id: posts.id });
  const [target] = await db
    .insert(postTargets)
    .values({
      postId: post!.id,
      organizationId: orgId,
      platformId: xPlatform,
      integrationId: xId,
      status: 'PUBLISHED',
      publishedAt: new Date('2026-03-02T23:30:00Z'),
    })
    .returning({ id: postTargets.id });
  // Read at 23:45 UTC (00:45 in Paris, the 3rd), then the next morning.
  for (const [checkpoint, takenAt, views] of [
    ['15m', '2026-03-02T23:45:00Z', 100],
    ['6h', '2026-03-03T10:00:00Z', 150],
  ] as const) {
    await db.insert(postMetricSnapshots).values({
      organizationId: orgId,
      postId: post!.id,
      targetId: target!.id,
      integrationId: xId,
      checkpoint,
      takenAt: new Date(takenAt),
      views,
      interactions: views / 10,
    });
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('analytics days in a time zone', () => {
  it('puts a post published at 23:30 UTC, and its first views, on the next day in Paris', async () => {
    const utc = await overview('from=2026-03-02&to=2026-03-03&timezone=UTC');
    expect(utc.timezone).toBe('UTC');
    expect(utc.daily).toEqual([
      { day: '2026-03-02', views: 100, interactions: 10 },
      { day: '2026-03-03', views: 50, interactions: 5 },
    ]);
    const paris = await overview('from=2026-03-02&to=2026-03-03&timezone=Europe/Paris');
    expect(paris.timezone).toBe('Europe/Paris');
    expect(paris.daily).toEqual([
      { day: '2026-03-02', views: null, interactions: null },
      { day: '2026-03-03', views: 150, interactions: 15 },
    ]);
  });

  it("counts the range's posts on the days of the zone", async () => {
    const second = (zone: string) => overview(`from=2026-03-02&to=2026-03-02&timezone=${zone}`);
    const third = (zone: string) => overview(`from=2026-03-03&to=2026-03-03&timezone=${zone}`);
    expect((await second('UTC')).kpis.postsPublished.value).toBe(1);
    expect((await second('Europe/Paris')).kpis.postsPublished.value).toBe(0);
    expect((await third('UTC')).kpis.postsPublished.value).toBe(0);
    const inParis = await third('Europe/Paris');
    expect(inParis.kpis.postsPublished.value).toBe(1);
    expect(inParis.topPosts).toHaveLength(1);
  });

  it('exports the rows of the zone’s days', async () => {
    const publishedIn = async (zone: string) => {
      const res = await send(t.app, owner.jar, {
        method: 'GET',
        url: `${base()}/export.csv?from=2026-03-03&to=2026-03-03&timezone=${zone}`,
      });
      expect(res.statusCode).toBe(200);
      const [header, ...rows] = readCsvAs(res.body, ',');
      expect(header).toEqual([...ANALYTICS_EXPORT_COLUMNS]);
      return rows.map((r) => r[0]);
    };
    expect(await publishedIn('UTC')).toEqual([]);
    expect(await publishedIn('Europe/Paris')).toEqual(['2026-03-02T23:30:00Z']);
  });

  it('uses the zone that applies when none is asked for: the organization’s, else the member’s', async () => {
    // The owner's own zone (taken from the browser at sign-in).
    const setOwn = await owner.call('PUT', `/api/users/${owner.userId}`, {
      displayName: 'Owner',
      timezone: 'America/New_York',
    });
    expect(setOwn.status).toBe(200);
    const own = await overview('from=2026-03-02&to=2026-03-03');
    expect(own.timezone).toBe('America/New_York');
    // 23:45 UTC is 18:45 in New York: both readings are on the 2nd and 3rd as in UTC.
    expect(own.daily.map((d) => d.views)).toEqual([100, 50]);

    expect(
      (
        await owner.call('PATCH', `/api/organizations/${orgId}`, {
          defaultTimeZone: 'Europe/Paris',
        })
      ).status,
    ).toBe(200);
    const organization = await overview('from=2026-03-02&to=2026-03-03');
    expect(organization.timezone).toBe('Europe/Paris');
    expect(organization.daily.map((d) => d.views)).toEqual([null, 150]);

    const bestTimes = await owner.call('GET', `${base()}/best-times?from=2026-03-03&to=2026-03-03`);
    expect(bestTimes.body.data).toMatchObject({
      timezone: 'Europe/Paris',
      posts: 1,
      // Tuesday 3 March, 00:30 in Paris.
      cells: [{ weekday: 1, hour: 0, posts: 1 }],
    });
  });

  it('refuses a zone that is not an IANA name with a sentence, on every analytics read', async () => {
    for (const path of ['overview', 'best-times', 'export.csv', 'accounts.csv']) {
      const res = await owner.call(
        'GET',
        `${base()}/${path}?from=2026-03-02&to=2026-03-03&timezone=Mars/Olympus`,
      );
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toContain(TIME_ZONE_PARAM_MESSAGE);
    }
  });
});
