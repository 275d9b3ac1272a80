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
let postId: string;
let unreadPostId: string;
let otherPostId: string;
let igTargetId: string;
let xTargetId: string;
let platformIds: Record<string, string>;

const at = (iso: string) => new Date(iso);

const seedAccount = (organizationId: string, platform: string, name = `${platform} account`) =>
  seedConnectedAccount(t.database.db, organizationId, platformIds[platform]!, name);

async function seedPost(organizationId: string, content: string) {
  const [post] = await t.database.db
    .insert(posts)
    .values({
      organizationId,
      status: 'published',
      content,
      publishedAt: at('2026-03-02T10:00:00Z'),
    })
    .returning({ id: posts.id });
  return post!.id;
}

async function seedTarget(
  organizationId: string,
  post: string,
  integrationId: string,
  platform: string,
  status: 'PUBLISHED' | 'FAILED' = 'PUBLISHED',
) {
  const [target] = await t.database.db
    .insert(postTargets)
    .values({
      postId: post,
      organizationId,
      platformId: platformIds[platform]!,
      integrationId,
      accountName: `${platform} account`,
      status,
      publishedAt: status === 'PUBLISHED' ? at('2026-03-02T10:00:00Z') : null,
    })
    .returning({ id: postTargets.id });
  return target!.id;
}

type Reading = Partial<Record<'views' | 'reach' | 'likes' | 'interactions' | 'saves', number>>;

async function read(
  organizationId: string,
  post: string,
  targetId: string,
  takenAt: string,
  values: Reading,
) {
  await t.database.db.insert(postMetricSnapshots).values({
    organizationId,
    postId: post,
    targetId,
    checkpoint: '1h',
    takenAt: at(takenAt),
    ...values,
  });
}

const metrics = (actor: Actor, org: string, post: string) =>
  actor.call('GET', `/api/organizations/${org}/posts/${post}/metrics`);

beforeAll(async () => {
  t = await createTestApp();
  const created = await createOrg(t.app, 'owner@postmetrics.test', 'Curves Co');
  ({ owner, orgId } = created);
  ({ owner: outsider, orgId: otherOrgId } = await createOrg(
    t.app,
    'other@postmetrics.test',
    'Rival',
  ));
  creator = (
    await addMember(t.app, owner, orgId, 'creator@postmetrics.test', {
      roleId: created.roleId('ContentCreator'),
    })
  ).actor;
  const supported = await owner.call('GET', '/api/platforms/supported');
  platformIds = Object.fromEntries(
    (supported.body.data.platforms as Array<{ id: string; name: string }>).map((p) => [
      p.name,
      p.id,
    ]),
  );
  const ig = await seedAccount(orgId, 'Instagram', 'Studio IG');
  const x = await seedAccount(orgId, 'X', 'Studio X');
  const li = await seedAccount(orgId, 'LinkedIn', 'Studio LI');
  const rival = await seedAccount(otherOrgId, 'X', 'Rival X');

  postId = await seedPost(orgId, 'Spring launch');
  igTargetId = await seedTarget(orgId, postId, ig, 'Instagram');
  xTargetId = await seedTarget(orgId, postId, x, 'X');
  await seedTarget(orgId, postId, li, 'LinkedIn', 'FAILED');
  // Inserted out of order: the series must come back oldest first.
  await read(orgId, postId, igTargetId, '2026-03-03T10:00:00Z', {
    views: 300,
    reach: 200,
    likes: 25,
    saves: 4,
    interactions: 30,
  });
  await read(orgId, postId, igTargetId, '2026-03-02T11:00:00Z', {
    views: 100,
    reach: 80,
    likes: 8,
    interactions: 10,
  });
  await read(orgId, postId, igTargetId, '2026-03-02T16:00:00Z', {
    views: 180,
    reach: 120,
    likes: 15,
    interactions: 18,
  });
  // X gives no reach and here no saves: they stay null.
  await read(orgId, postId, xTargetId, '2026-03-02T11:00:00Z', { views: 500, interactions: 10 });

  unreadPostId = await seedPost(orgId, 'Just out');
  await seedTarget(orgId, unreadPostId, ig, 'Instagram');

  otherPostId = await seedPost(otherOrgId, 'Rival secret');
  const rivalTarget = await seedTarget(otherOrgId, otherPostId, rival, 'X');
  await read(otherOrgId, otherPostId, rivalTarget, '2026-03-02T11:00:00Z', { views: 99_999 });
});

afterAll(async () => {
  await t?.close();
});

describe('GET /organizations/:orgId/posts/:postId/metrics', () => {
  it('answers the latest figures per published target, oldest reading first in the series', async () => {
    const res = await metrics(owner, orgId, postId);
    expect(res.status).toBe(200);
    const targets = res.body.data.targets as Array<Record<string, unknown>>;
    // The failed LinkedIn target is not listed.
    expect(targets.map((target) => target.platform).sort()).toEqual(['Instagram', 'X']);

    const ig = targets.find((target) => target.targetId === igTargetId)!;
    expect(ig.takenAt).toBe('2026-03-03T10:00:00Z');
    expect(ig.latest).toEqual({
      views: 300,
      reach: 200,
      likes: 25,
      comments: null,
      shares: null,
      saves: 4,
      clicks: null,
      interactions: 30,
      engagementRate: 0.1,
    });
    expect(ig.series).toEqual([
      { takenAt: '2026-03-02T11:00:00Z', views: 100, interactions: 10 },
      { takenAt: '2026-03-02T16:00:00Z', views: 180, interactions: 18 },
      { takenAt: '2026-03-03T10:00:00Z', views: 300, interactions: 30 },
    ]);

    const x = targets.find((target) => target.targetId === xTargetId)!;
    expect(x.latest).toMatchObject({
      views: 500,
      reach: null,
      likes: null,
      saves: null,
      interactions: 10,
      engagementRate: 0.02,
    });
    expect(x.series).toEqual([{ takenAt: '2026-03-02T11:00:00Z', views: 500, interactions: 10 }]);
    expect(JSON.stringify(res.body)).not.toContain('99999');
  });

  it('lists a target not read yet with null figures and an empty series', async () => {
    const res = await metrics(owner, orgId, unreadPostId);
    expect(res.status).toBe(200);
    const [target] = res.body.data.targets;
    expect(target.takenAt).toBeNull();
    expect(target.series).toEqual([]);
    expect(Object.values(target.latest).every((value) => value === null)).toBe(true);
  });

  it("answers 404 for another organization's post, without its figures", async () => {
    const res = await metrics(owner, orgId, otherPostId);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('99999');
  });

  it('needs analytics:view and membership', async () => {
    expect((await metrics(creator, orgId, postId)).status).toBe(403);
    expect((await metrics(outsider, orgId, postId)).status).toBe(403);
    expect((await metrics(owner, orgId, 'not-a-uuid')).status).toBe(400);
  });
});
