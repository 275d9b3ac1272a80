import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_EXPORT_COLUMNS } from '@herald/contract';
import { postMetricSnapshots, posts, postTargets } from '../../db/schema.js';
import { seedConnectedAccount } from '../../test/analytics-seed.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { formulaCells, readCsvAs } from '../../test/spreadsheet.js';

let t: TestApp;
let owner: Actor;
let manager: Actor;
let creator: Actor;
let outsider: Actor;
let orgId: string;
let otherOrgId: string;
let otherAccountId: string;
let igId: string;
let platformIds: Record<string, string>;

const seedAccount = (organizationId: string, platform: string, name = `${platform} account`) =>
  seedConnectedAccount(t.database.db, organizationId, platformIds[platform]!, name);

type Metrics = Partial<
  Record<
    'views' | 'reach' | 'likes' | 'comments' | 'shares' | 'saves' | 'clicks' | 'interactions',
    number
  >
>;

async function seedPost(
  organizationId: string,
  integrationId: string,
  platform: string,
  post: { content: string; title?: string; publishedAt: string },
  readings: Array<{ takenAt: string } & Metrics>,
) {
  const db = t.database.db;
  const [row] = await db
    .insert(posts)
    .values({
      organizationId,
      status: 'published',
      content: post.content,
      title: post.title ?? null,
      publishedAt: new Date(post.publishedAt),
    })
    .returning({ id: posts.id });
  const [target] = await db
    .insert(postTargets)
    .values({
      postId: row!.id,
      organizationId,
      platformId: platformIds[platform]!,
      integrationId,
      accountName: `${platform} account`,
      status: 'PUBLISHED',
      publishedAt: new Date(post.publishedAt),
      permalink: `https://example.com/${row!.id}`,
    })
    .returning({ id: postTargets.id });
  for (const { takenAt, ...metrics } of readings)
    await db.insert(postMetricSnapshots).values({
      organizationId,
      postId: row!.id,
      targetId: target!.id,
      integrationId,
      checkpoint: '1h',
      takenAt: new Date(takenAt),
      ...metrics,
    });
  return row!.id;
}

/** Reads the CSV as a spreadsheet does, to check the quoting round-trips. */
const parseCsv = (text: string) => readCsvAs(text, ',');

const RANGE = 'from=2026-03-01&to=2026-03-07';
async function exportCsv(actor: Actor, org: string, query: string) {
  const res = await send(t.app, actor.jar, {
    method: 'GET',
    url: `/api/organizations/${org}/analytics/export.csv?${query}`,
    headers: { origin: TEST_PUBLIC_URL },
  });
  const text = res.body;
  return {
    status: res.statusCode,
    headers: res.headers,
    text,
    body: res.headers['content-type']?.toString().includes('json') ? res.json() : null,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  const created = await createOrg(t.app, 'owner@export.test', 'Export Co');
  ({ owner, orgId } = created);
  manager = (
    await addMember(t.app, owner, orgId, 'manager@export.test', {
      roleId: created.roleId('SocialMediaManager'),
    })
  ).actor;
  creator = (
    await addMember(t.app, owner, orgId, 'creator@export.test', {
      roleId: created.roleId('ContentCreator'),
    })
  ).actor;
  ({ owner: outsider, orgId: otherOrgId } = await createOrg(t.app, 'rival@export.test', 'Rival'));
  const supported = await owner.call('GET', '/api/platforms/supported');
  platformIds = Object.fromEntries(
    (supported.body.data.platforms as Array<{ id: string; name: string }>).map((p) => [
      p.name,
      p.id,
    ]),
  );
  igId = await seedAccount(orgId, 'Instagram', 'Studio IG');
  const xId = await seedAccount(orgId, 'X', 'Studio X');
  otherAccountId = await seedAccount(otherOrgId, 'X', 'Rival X');

  await seedPost(
    orgId,
    igId,
    'Instagram',
    { content: 'Spring, "finally"\nhere', title: 'Launch', publishedAt: '2026-03-02T10:00:00Z' },
    [
      { takenAt: '2026-03-02T11:00:00Z', views: 100, reach: 80, likes: 5, interactions: 6 },
      {
        takenAt: '2026-03-03T10:00:00Z',
        views: 300,
        reach: 200,
        likes: 20,
        comments: 4,
        shares: 2,
        saves: 3,
        interactions: 29,
      },
      // After the range: not what the screen showed for it.
      { takenAt: '2026-03-20T10:00:00Z', views: 9000, interactions: 900 },
    ],
  );
  await seedPost(orgId, xId, 'X', { content: '=SUM(A1:A9)', publishedAt: '2026-03-04T12:00:00Z' }, [
    { takenAt: '2026-03-04T13:00:00Z', views: 500, likes: 7, clicks: 3, interactions: 10 },
  ]);
  await seedPost(
    orgId,
    xId,
    'X',
    { content: 'Not read yet', publishedAt: '2026-03-06T12:00:00Z' },
    [],
  );
  await seedPost(
    orgId,
    xId,
    'X',
    { content: 'Too early', publishedAt: '2026-02-20T12:00:00Z' },
    [],
  );
  await seedPost(
    otherOrgId,
    otherAccountId,
    'X',
    { content: 'Rival secret', publishedAt: '2026-03-03T12:00:00Z' },
    [{ takenAt: '2026-03-03T13:00:00Z', views: 99_999, interactions: 9_999 }],
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /organizations/:orgId/analytics/export.csv', () => {
  it('gives one row per published target of the range, absent metrics empty', async () => {
    const res = await exportCsv(owner, orgId, RANGE);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="herald-post-metrics-2026-03-01-to-2026-03-07.csv"',
    );
    // Per-user data: no browser or shared cache keeps it.
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(res.text.slice(1));
    expect(header).toEqual([...ANALYTICS_EXPORT_COLUMNS]);
    expect(rows).toHaveLength(3);
    const record = (row: string[]) => Object.fromEntries(header!.map((h, i) => [h, row[i]]));
    const [launch, formula, unread] = rows.map(record);
    expect(launch).toMatchObject({
      published_at: '2026-03-02T10:00:00Z',
      network: 'Instagram',
      account: 'Instagram account',
      title: 'Launch',
      // Commas, quotes and the line break come back intact.
      text: 'Spring, "finally"\nhere',
      views: '300',
      reach: '200',
      likes: '20',
      comments: '4',
      shares: '2',
      saves: '3',
      clicks: '',
      video_views: '',
      interactions: '29',
      engagement_rate: String(Number((29 / 300).toFixed(6))),
      read_at: '2026-03-03T10:00:00Z',
    });
    // X gives no reach or saves: empty, never 0.
    expect(formula).toMatchObject({
      network: 'X',
      views: '500',
      reach: '',
      saves: '',
      clicks: '3',
    });
    expect(unread).toMatchObject({ views: '', interactions: '', engagement_rate: '', read_at: '' });
  });

  it('defuses text a spreadsheet would run as a formula', async () => {
    const res = await exportCsv(owner, orgId, RANGE);
    expect(res.text).toContain("'=SUM(A1:A9)");
    expect(res.text).not.toMatch(/,=SUM/);
    expect(formulaCells(res.text)).toEqual([]);
  });

  it('keeps text whole in a spreadsheet that splits on semicolons', async () => {
    const { orgId: semiOrg, owner: semiOwner } = await createOrg(t.app, 'semi@export.test', 'Semi');
    const account = await seedAccount(semiOrg, 'X', 'Semi X');
    await seedPost(
      semiOrg,
      account,
      'X',
      { content: 'semi75;=1+2', title: 'a;@cmd', publishedAt: '2026-03-02T10:00:00Z' },
      [],
    );
    const res = await exportCsv(semiOwner, semiOrg, RANGE);
    expect(res.status).toBe(200);
    expect(res.text).toContain(',"semi75;=1+2",');
    expect(res.text).toContain(',"a;@cmd",');
    const [, row] = parseCsv(res.text);
    expect(row).toContain('semi75;=1+2');
    expect(formulaCells(res.text)).toEqual([]);
  });

  it('filters like the overview and refuses bad ranges with JSON', async () => {
    const ig = await exportCsv(owner, orgId, `${RANGE}&integrationIds=${igId}`);
    expect(parseCsv(ig.text.slice(1))).toHaveLength(2);
    const backwards = await exportCsv(owner, orgId, 'from=2026-03-07&to=2026-03-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toMatch(/ends before it starts/);
  });

  it('needs analytics:export and keeps organizations apart', async () => {
    // The manager may view analytics; exporting is its own permission.
    const viewOnly = await exportCsv(manager, orgId, RANGE);
    expect(viewOnly.status).toBe(403);
    expect(viewOnly.body.message).toMatch(/Your role does not allow this/);
    expect(viewOnly.text).not.toContain('Launch');
    expect((await exportCsv(creator, orgId, RANGE)).status).toBe(403);
    expect((await exportCsv(outsider, orgId, RANGE)).status).toBe(403);
    const foreign = await exportCsv(owner, orgId, `${RANGE}&integrationIds=${otherAccountId}`);
    expect(foreign.status).toBe(404);
    const mine = await exportCsv(owner, orgId, RANGE);
    expect(mine.text).not.toMatch(/Rival|99999/);
    const theirs = await exportCsv(outsider, otherOrgId, RANGE);
    expect(parseCsv(theirs.text.slice(1))).toHaveLength(2);
    expect(theirs.text).toContain('Rival secret');
    expect(theirs.text).not.toContain('Launch');
  });

  it('pages through more rows than one read without losing or repeating any', async () => {
    const db = t.database.db;
    const { orgId: bigOrg, owner: bigOwner } = await createOrg(t.app, 'big@export.test', 'Big');
    const account = await seedAccount(bigOrg, 'X', 'Big X');
    const count = 1_203;
    const created = await db
      .insert(posts)
      .values(
        Array.from({ length: count }, (_, i) => ({
          organizationId: bigOrg,
          status: 'published' as const,
          content: `Post ${i}`,
        })),
      )
      .returning({ id: posts.id });
    // Many share one publishing instant, so the page key must include the target id.
    await db.insert(postTargets).values(
      created.map((p, i) => ({
        postId: p.id,
        organizationId: bigOrg,
        platformId: platformIds.X!,
        integrationId: account,
        status: 'PUBLISHED' as const,
        publishedAt: new Date(Date.parse('2026-03-02T00:00:00Z') + (i % 7) * 3_600_000),
      })),
    );
    const res = await exportCsv(bigOwner, bigOrg, RANGE);
    const rows = parseCsv(res.text.slice(1)).slice(1);
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((r) => r[5])).size).toBe(count);
  });
});
