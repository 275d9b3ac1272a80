/**
 * `post_metric_latest` (docs/analytics.md#latest-reading): the stored latest reading of each
 * target must always be what the readings themselves say, whatever order they arrive in, and
 * the reads built on it must answer as a search of the readings would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  organizations,
  platforms,
  postMetricSnapshots,
  posts,
  postTargets,
} from '../../db/schema.js';
import { seedConnectedAccount } from '../../test/analytics-seed.js';
import { createTestDatabase } from '../../test/database.js';
import { listExportPage } from './analytics-export.repository.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let orgId: string;
let platformId: string;
let integrationId: string;

interface Reading {
  takenAt: string;
  views: number | null;
  reach?: number | null;
  interactions?: number | null;
  likes?: number | null;
}

async function addTarget(publishedAt = '2026-04-01T08:00:00Z') {
  const [post] = await db
    .insert(posts)
    .values({ organizationId: orgId, status: 'published', content: 'Latest' })
    .returning({ id: posts.id });
  const [target] = await db
    .insert(postTargets)
    .values({
      postId: post!.id,
      organizationId: orgId,
      platformId,
      integrationId,
      status: 'PUBLISHED',
      publishedAt: new Date(publishedAt),
    })
    .returning({ id: postTargets.id });
  return { postId: post!.id, targetId: target!.id };
}

async function read(target: { postId: string; targetId: string }, ...readings: Reading[]) {
  // One statement per reading, as collection writes them (the insert trigger runs per row).
  for (const r of readings)
    await db.insert(postMetricSnapshots).values({
      organizationId: orgId,
      postId: target.postId,
      targetId: target.targetId,
      integrationId,
      checkpoint: 'test',
      takenAt: new Date(r.takenAt),
      views: r.views,
      reach: r.reach ?? null,
      interactions: r.interactions ?? null,
      likes: r.likes ?? null,
    });
}

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** The stored rows, and the same computed from the readings: the greatest (taken_at, id). */
async function storedAndComputed() {
  const columns = sql`target_id as "targetId", snapshot_id as "snapshotId",
    taken_at::text as "takenAt", views::float8 as views, reach::float8 as reach,
    likes::float8 as likes, interactions::float8 as interactions`;
  const stored = await rows<Record<string, unknown>>(
    sql`select ${columns}, engagement_base::float8 as base
        from post_metric_latest where organization_id = ${orgId} order by target_id`,
  );
  const computed = await rows<Record<string, unknown>>(
    sql`select distinct on (target_id) ${columns},
          case when interactions is not null then coalesce(views, reach) end::float8 as base
        from (select s.*, s.id as snapshot_id from post_metric_snapshots s
              where s.organization_id = ${orgId}) s
        order by target_id, taken_at desc, id desc`,
  );
  return { stored, computed };
}

async function expectAgrees() {
  const { stored, computed } = await storedAndComputed();
  expect(stored).toEqual(computed);
  return stored;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.database.db;
  const [org] = await db
    .insert(organizations)
    .values({ name: 'Latest Co' })
    .returning({ id: organizations.id });
  orgId = org!.id;
  const [platform] = await db
    .select({ id: platforms.id })
    .from(platforms)
    .where(eq(platforms.name, 'Instagram'));
  platformId = platform!.id;
  integrationId = await seedConnectedAccount(db, orgId, platformId, 'Latest account');
});

afterAll(async () => {
  await database?.drop();
});

describe('post_metric_latest', () => {
  it('keeps the latest reading when readings arrive out of order or twice', async () => {
    const a = await addTarget();
    const b = await addTarget();
    await read(a, { takenAt: '2026-04-02T08:00:00Z', views: 200, interactions: 20 });
    // Older than the one stored: changes nothing.
    await read(a, { takenAt: '2026-04-01T09:00:00Z', views: 100, interactions: 10 });
    let stored = await expectAgrees();
    expect(stored.find((r) => r.targetId === a.targetId)?.views).toBe(200);
    // Later: replaces it. Then the same time again, with other figures: the greater id wins,
    // the same rule as the readings' search (whichever was written second).
    await read(a, { takenAt: '2026-04-04T08:00:00Z', views: 400, reach: 300, interactions: 40 });
    await read(a, { takenAt: '2026-04-04T08:00:00Z', views: 410, reach: 310, interactions: 41 });
    await read(a, { takenAt: '2026-04-04T08:00:00Z', views: 420, reach: 320, interactions: 42 });
    // A network without views: the engagement base is the reach; without interactions, none.
    await read(b, { takenAt: '2026-04-03T08:00:00Z', views: null, reach: 50, interactions: 5 });
    await read(b, { takenAt: '2026-04-01T08:00:00Z', views: null, reach: 10, likes: 1 });
    stored = await expectAgrees();
    expect(stored).toHaveLength(2);
    expect(stored.find((r) => r.targetId === b.targetId)).toMatchObject({
      views: null,
      reach: 50,
      interactions: 5,
      base: 50,
    });
    expect([400, 410, 420]).toContain(stored.find((r) => r.targetId === a.targetId)?.views);

    // A deleted reading gives the target back the one before it, or nothing.
    await db.execute(
      sql`delete from post_metric_snapshots where id = (select snapshot_id from post_metric_latest
            where target_id = ${a.targetId})`,
    );
    stored = await expectAgrees();
    expect(stored.find((r) => r.targetId === a.targetId)?.takenAt).toMatch(/^2026-04-04 08:00/);
    await db.execute(
      sql`delete from post_metric_snapshots
          where target_id = ${a.targetId} and taken_at >= '2026-04-02T00:00:00Z'`,
    );
    stored = await expectAgrees();
    expect(stored.find((r) => r.targetId === a.targetId)?.views).toBe(100);
    // A changed reading (nothing in Herald changes one) is followed too.
    await db.execute(
      sql`update post_metric_snapshots set taken_at = '2026-04-05T08:00:00Z', views = 7
          where target_id = ${b.targetId} and taken_at = '2026-04-01T08:00:00Z'`,
    );
    stored = await expectAgrees();
    expect(stored.find((r) => r.targetId === b.targetId)).toMatchObject({ views: 7, base: null });
  });

  it('goes with a deleted target or post, and leaves the others alone', async () => {
    const c = await addTarget();
    const d = await addTarget();
    await read(c, { takenAt: '2026-04-02T08:00:00Z', views: 5, interactions: 1 });
    await read(d, { takenAt: '2026-04-02T08:00:00Z', views: 6, interactions: 1 });
    const before = (await expectAgrees()).length;
    await db.delete(postTargets).where(eq(postTargets.id, c.targetId));
    let stored = await expectAgrees();
    expect(stored).toHaveLength(before - 1);
    expect(stored.some((r) => r.targetId === c.targetId)).toBe(false);
    await db.delete(posts).where(eq(posts.id, d.postId));
    stored = await expectAgrees();
    expect(stored).toHaveLength(before - 2);
    expect(stored.some((r) => r.targetId === d.targetId)).toBe(false);
  });

  it('answers a past range with the reading taken before it ended, as the readings say', async () => {
    const e = await addTarget('2026-06-01T08:00:00Z');
    const f = await addTarget('2026-06-01T09:00:00Z');
    const g = await addTarget('2026-06-01T10:00:00Z'); // never read
    await read(
      e,
      { takenAt: '2026-06-03T08:00:00Z', views: 300, reach: 200, interactions: 30, likes: 3 },
      { takenAt: '2026-06-01T09:00:00Z', views: 100, reach: 90, interactions: 10, likes: 1 },
      { takenAt: '2026-06-02T08:00:00Z', views: 200, reach: 150, interactions: 20, likes: 2 },
    );
    await read(f, { takenAt: '2026-06-02T12:00:00Z', views: null, reach: 40, interactions: 4 });
    await expectAgrees();
    const page = (cutoff: string) =>
      listExportPage(
        db,
        { organizationId: orgId },
        new Date('2026-06-01T00:00:00Z'),
        new Date('2026-06-02T00:00:00Z'),
        new Date(cutoff),
        null,
        10,
      );
    const byTarget = async (cutoff: string) =>
      new Map((await page(cutoff)).map((r) => [r.targetId, r]));

    // After every reading: the stored latest.
    let got = await byTarget('2026-07-01T00:00:00Z');
    expect(got.get(e.targetId)).toMatchObject({
      views: 300,
      likes: 3,
      takenAt: '2026-06-03T08:00:00Z',
    });
    expect(got.get(f.targetId)).toMatchObject({ views: null, reach: 40 });
    expect(got.get(g.targetId)).toMatchObject({ views: null, takenAt: null });
    // Between readings: the one before the cutoff, searched.
    got = await byTarget('2026-06-02T10:00:00Z');
    expect(got.get(e.targetId)).toMatchObject({
      views: 200,
      reach: 150,
      likes: 2,
      interactions: 20,
      takenAt: '2026-06-02T08:00:00Z',
    });
    expect(got.get(f.targetId)).toMatchObject({ reach: null, takenAt: null });
    // A cutoff on a reading's time does not count it (taken before, strictly).
    got = await byTarget('2026-06-02T08:00:00Z');
    expect(got.get(e.targetId)).toMatchObject({ views: 100, takenAt: '2026-06-01T09:00:00Z' });
    got = await byTarget('2026-06-01T09:00:00Z');
    expect(got.get(e.targetId)).toMatchObject({ views: null, takenAt: null });
  });
});
