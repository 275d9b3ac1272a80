import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_ACCOUNT_EXPORT_COLUMNS } from '@herald/contract';
import { eq } from 'drizzle-orm';
import {
  accountMetricDays,
  postMedia,
  postMetricSnapshots,
  posts,
  postTargets,
} from '../../db/schema.js';
import { seedConnectedAccount } from '../../test/analytics-seed.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { formulaCells, readCsvAs } from '../../test/spreadsheet.js';

let t: TestApp;
let owner: Actor;
let manager: Actor;
let outsider: Actor;
let orgId: string;
let otherOrgId: string;
let igId: string;
let xId: string;
let otherAccountId: string;
let platformIds: Record<string, string>;

const RANGE = 'from=2026-03-01&to=2026-03-03';

const rowsOf = (text: string) => readCsvAs(text, ',');

async function get(actor: Actor, org: string, path: string) {
  const res = await send(t.app, actor.jar, {
    method: 'GET',
    url: `/api/organizations/${org}/analytics/${path}`,
    headers: { origin: TEST_PUBLIC_URL },
  });
  const json = res.headers['content-type']?.toString().includes('json');
  return {
    status: res.statusCode,
    headers: res.headers,
    text: res.body,
    body: json ? res.json() : null,
  };
}

async function seedDays(
  organizationId: string,
  integrationId: string,
  days: Array<{ day: string; followers?: number; reach?: number; profileViews?: number }>,
) {
  await t.database.db.insert(accountMetricDays).values(
    days.map((d) => ({
      organizationId,
      integrationId,
      day: d.day,
      followers: d.followers ?? null,
      reach: d.reach ?? null,
      profileViews: d.profileViews ?? null,
      collectedAt: new Date(`${d.day}T03:17:00Z`),
    })),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  const created = await createOrg(t.app, 'owner@accounts-export.test', 'Series Co');
  ({ owner, orgId } = created);
  manager = (
    await addMember(t.app, owner, orgId, 'manager@accounts-export.test', {
      roleId: created.roleId('SocialMediaManager'),
    })
  ).actor;
  ({ owner: outsider, orgId: otherOrgId } = await createOrg(
    t.app,
    'rival@accounts-export.test',
    'Rival',
  ));
  const supported = await owner.call('GET', '/api/platforms/supported');
  platformIds = Object.fromEntries(
    (supported.body.data.platforms as Array<{ id: string; name: string }>).map((p) => [
      p.name,
      p.id,
    ]),
  );
  igId = await seedConnectedAccount(t.database.db, orgId, platformIds.Instagram!, 'Studio IG');
  xId = await seedConnectedAccount(t.database.db, orgId, platformIds.X!, 'Studio X');
  otherAccountId = await seedConnectedAccount(t.database.db, otherOrgId, platformIds.X!, 'Rival X');
  await seedDays(orgId, igId, [
    // Before the range: the first day's change is counted from it.
    { day: '2026-02-27', followers: 990 },
    { day: '2026-03-01', followers: 1000, reach: 400, profileViews: 12 },
    { day: '2026-03-02', followers: 1015, reach: 380 },
    { day: '2026-03-03', followers: 1012 },
    { day: '2026-03-04', followers: 5000 },
  ]);
  await seedDays(orgId, xId, [{ day: '2026-03-02', followers: 50 }]);
  await seedDays(otherOrgId, otherAccountId, [{ day: '2026-03-02', followers: 777_777 }]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /organizations/:orgId/analytics/accounts.csv', () => {
  it('gives one row per account and day of the range, absent figures empty', async () => {
    const res = await get(owner, orgId, `accounts.csv?${RANGE}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="herald-account-series-2026-03-01-to-2026-03-03.csv"',
    );
    // Per-user data: no browser or shared cache keeps it.
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = rowsOf(res.text);
    expect(header).toEqual([...ANALYTICS_ACCOUNT_EXPORT_COLUMNS]);
    const records = rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
    expect(records.map((r) => [r.day, r.account, r.followers, r.followers_change])).toEqual([
      ['2026-03-01', 'Studio IG', '1000', '10'],
      ...[
        ['2026-03-02', 'Studio IG', '1015', '15'],
        ['2026-03-02', 'Studio X', '50', ''],
      ].sort((a, b) =>
        // Same day: by account id, as documented.
        (a[1] === 'Studio IG' ? igId : xId).localeCompare(b[1] === 'Studio IG' ? igId : xId),
      ),
      ['2026-03-03', 'Studio IG', '1012', '-3'],
    ]);
    expect(records[0]).toMatchObject({
      network: 'Instagram',
      account_id: igId,
      views: '',
      reach: '400',
      profile_views: '12',
      interactions: '',
    });
    expect(res.text).not.toMatch(/Rival|777777|5000/);
  });

  it('keeps an account name whole in a spreadsheet that splits on semicolons', async () => {
    const { orgId: semiOrg, owner: semiOwner } = await createOrg(
      t.app,
      'semi@accounts-export.test',
      'Semi',
    );
    const named = await seedConnectedAccount(t.database.db, semiOrg, platformIds.X!, 'semi75;=1+2');
    await seedDays(semiOrg, named, [{ day: '2026-03-02', followers: 7 }]);
    const res = await get(semiOwner, semiOrg, `accounts.csv?${RANGE}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(',"semi75;=1+2",');
    expect(rowsOf(res.text)[1]![2]).toBe('semi75;=1+2');
    expect(formulaCells(res.text)).toEqual([]);
  });

  it('filters like the overview and refuses bad ranges with JSON', async () => {
    const x = await get(owner, orgId, `accounts.csv?${RANGE}&platformIds=${platformIds.X}`);
    expect(
      rowsOf(x.text)
        .slice(1)
        .map((r) => r[2]),
    ).toEqual(['Studio X']);
    const ig = await get(owner, orgId, `accounts.csv?${RANGE}&integrationIds=${igId}`);
    expect(rowsOf(ig.text)).toHaveLength(4);
    const backwards = await get(owner, orgId, 'accounts.csv?from=2026-03-07&to=2026-03-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toMatch(/ends before it starts/);
    const tooLong = await get(owner, orgId, 'accounts.csv?from=2020-01-01&to=2026-03-01');
    expect(tooLong.status).toBe(400);
  });

  it('needs analytics:export and keeps organizations apart', async () => {
    const viewOnly = await get(manager, orgId, `accounts.csv?${RANGE}`);
    expect(viewOnly.status).toBe(403);
    expect(viewOnly.text).not.toContain('Studio');
    expect((await get(outsider, orgId, `accounts.csv?${RANGE}`)).status).toBe(403);
    const foreign = await get(
      owner,
      orgId,
      `accounts.csv?${RANGE}&integrationIds=${otherAccountId}`,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain('Rival');
    const theirs = await get(outsider, otherOrgId, `accounts.csv?${RANGE}`);
    expect(
      rowsOf(theirs.text)
        .slice(1)
        .map((r) => r[2]),
    ).toEqual(['Rival X']);
  });

  it('pages through more rows than one read without losing or repeating any', async () => {
    const { orgId: bigOrg, owner: bigOwner } = await createOrg(
      t.app,
      'big@accounts-export.test',
      'Big',
    );
    const a = await seedConnectedAccount(t.database.db, bigOrg, platformIds.X!, 'Big A');
    const b = await seedConnectedAccount(t.database.db, bigOrg, platformIds.X!, 'Big B');
    const days = Array.from({ length: 400 }, (_, i) => ({
      day: new Date(Date.parse('2025-01-01T00:00:00Z') + i * 86_400_000).toISOString().slice(0, 10),
      followers: 100 + i,
    }));
    await seedDays(bigOrg, a, days);
    await seedDays(bigOrg, b, days);
    const res = await get(bigOwner, bigOrg, 'accounts.csv?from=2025-01-01&to=2026-02-10');
    const rows = rowsOf(res.text).slice(1);
    expect(rows).toHaveLength(800);
    expect(new Set(rows.map((r) => `${r[0]} ${r[3]}`)).size).toBe(800);
    expect(rows.every((r, i) => i === 0 || r[0]! >= rows[i - 1]![0]!)).toBe(true);
    expect(rows.filter((r) => r[0] !== '2025-01-01').every((r) => r[5] === '1')).toBe(true);
  });
});

describe('the daily rollup (analytics_daily_gains)', () => {
  it('follows readings as they are added and takes a deleted post back out', async () => {
    const db = t.database.db;
    const addPost = async (integrationId: string, platform: string, views: number[]) => {
      const [post] = await db
        .insert(posts)
        .values({ organizationId: orgId, status: 'published', content: 'Rollup' })
        .returning({ id: posts.id });
      const [target] = await db
        .insert(postTargets)
        .values({
          postId: post!.id,
          organizationId: orgId,
          platformId: platformIds[platform]!,
          integrationId,
          status: 'PUBLISHED',
          publishedAt: new Date('2026-05-01T08:00:00Z'),
        })
        .returning({ id: postTargets.id });
      // One reading a day, one at a time, as collection takes them.
      for (const [k, v] of views.entries())
        await db.insert(postMetricSnapshots).values({
          organizationId: orgId,
          postId: post!.id,
          targetId: target!.id,
          integrationId,
          checkpoint: `${k}`,
          takenAt: new Date(Date.parse('2026-05-01T09:00:00Z') + k * 86_400_000),
          views: v,
          interactions: v / 10,
        });
      return post!.id;
    };
    const kept = await addPost(igId, 'Instagram', [100, 250, 250]);
    const removed = await addPost(xId, 'X', [1000, 3000]);
    const daily = async (filter = '') =>
      (await get(owner, orgId, `overview?from=2026-05-01&to=2026-05-04${filter}`)).body.data
        .daily as Array<{ day: string; views: number | null; interactions: number | null }>;
    expect(await daily()).toEqual([
      { day: '2026-05-01', views: 1100, interactions: 110 },
      { day: '2026-05-02', views: 2150, interactions: 215 },
      { day: '2026-05-03', views: 0, interactions: 0 },
      { day: '2026-05-04', views: null, interactions: null },
    ]);
    expect((await daily(`&platformIds=${platformIds.X}`)).map((d) => d.views)).toEqual([
      1000,
      2000,
      null,
      null,
    ]);
    expect((await daily(`&integrationIds=${igId}`)).map((d) => d.views)).toEqual([
      100,
      150,
      0,
      null,
    ]);

    // Deleting the post takes its target's readings with it (foreign keys cascade).
    await db.delete(posts).where(eq(posts.id, removed));
    expect((await daily()).map((d) => d.views)).toEqual([100, 150, 0, null]);
    expect(kept).toBeTruthy();
  });
});

describe('top posts thumbnails', () => {
  it("gives each top post its first picture as a signed media URL, the organization's only", async () => {
    const db = t.database.db;
    const addPost = async (
      text: string,
      views: number,
      media: Array<'image' | 'video' | 'poster'>,
    ) => {
      const [post] = await db
        .insert(posts)
        .values({ organizationId: orgId, status: 'published', content: text })
        .returning({ id: posts.id });
      const [target] = await db
        .insert(postTargets)
        .values({
          postId: post!.id,
          organizationId: orgId,
          platformId: platformIds.Instagram!,
          integrationId: igId,
          status: 'PUBLISHED',
          publishedAt: new Date('2026-07-01T08:00:00Z'),
        })
        .returning({ id: postTargets.id });
      await db.insert(postMetricSnapshots).values({
        organizationId: orgId,
        postId: post!.id,
        targetId: target!.id,
        integrationId: igId,
        checkpoint: '1h',
        takenAt: new Date('2026-07-01T09:00:00Z'),
        views,
        interactions: 1,
      });
      for (const [position, kind] of media.entries())
        await db.insert(postMedia).values({
          postId: post!.id,
          organizationId: orgId,
          position,
          storageKey: `${orgId}/${post!.id}-${position}.${kind === 'image' ? 'jpg' : 'mp4'}`,
          thumbnailKey: kind === 'poster' ? `${orgId}/${post!.id}-${position}-poster.jpg` : null,
          fileName: 'file',
          mimeType: kind === 'image' ? 'image/jpeg' : 'video/mp4',
          kind: kind === 'image' ? 'image' : 'video',
          size: 1,
          sha256: 'x',
        });
      return post!.id;
    };
    const photo = await addPost('Photo post', 300, ['image', 'video']);
    const film = await addPost('Film post', 200, ['poster', 'image']);
    await addPost('Bare video', 100, ['video']);
    await addPost('Text only', 50, []);
    const res = await get(owner, orgId, 'overview?from=2026-07-01&to=2026-07-01');
    expect(res.status).toBe(200);
    const top = res.body.data.topPosts as Array<{ text: string; thumbnailUrl: string | null }>;
    const url = (text: string) => top.find((p) => p.text === text)!.thumbnailUrl;
    expect(url('Photo post')).toMatch(
      new RegExp(`/api/media/${orgId}/${photo}-0\\.jpg\\?exp=\\d+&sig=[\\w-]+$`),
    );
    expect(url('Film post')).toMatch(
      new RegExp(`/api/media/${orgId}/${film}-0-poster\\.jpg\\?exp=`),
    );
    // A video without a poster frame, a post without media: no picture.
    expect(url('Bare video')).toBeNull();
    expect(url('Text only')).toBeNull();
  });
});
