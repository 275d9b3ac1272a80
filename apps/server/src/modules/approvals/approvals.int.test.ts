import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';

/** Approvals: the setting, the pending status, the queue, approve and reject. */
let t: TestApp;
let mediaDir: string;
let owner: Actor;
let manager: Actor;
let creator: Actor;
let orgId: string;
let accountId: string;

interface PostDto {
  id: string;
  status: string;
  scheduledAt: string | null;
}

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

async function create(actor: Actor, fields: Record<string, string>, org = orgId) {
  const body = await multipart({ integrationIds: JSON.stringify([accountId]), ...fields });
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${org}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

async function schedule(actor: Actor, text: string, at = inHours(2)): Promise<PostDto> {
  const res = await create(actor, { content: text, scheduledAt: at, action: 'schedule' });
  expect(res.status).toBe(201);
  return res.body.data.post as PostDto;
}

async function edit(actor: Actor, postId: string, fields: Record<string, string>) {
  const body = await multipart({ integrationIds: JSON.stringify([accountId]), ...fields });
  const res = await send(t.app, actor.jar, {
    method: 'PUT',
    url: `/api/organizations/${orgId}/post/${postId}`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const all = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** The post's publish jobs still waiting (created, not cancelled). */
const waitingJobs = (postId: string) =>
  all<{ start_after: Date }>(
    sql`select j.start_after from pgboss.job j join post_targets pt on pt.job_id = j.id
        where pt.post_id = ${postId} and j.state = 'created'`,
  );

const setApproval = (on: boolean, actor = owner) =>
  actor.call('PATCH', `/api/organizations/${orgId}`, { requirePostApproval: on });

const notificationsOf = async (actor: Actor) =>
  (await actor.call('GET', `/api/notifications?organizationId=${orgId}`)).body as Array<{
    type: string;
    message: string;
    postId: string | null;
  }>;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-approvals-'));
  t = await createTestApp(
    { MEDIA_DIR: join(mediaDir, 'store'), MEDIA_TEMP_DIR: join(mediaDir, 'tmp') },
    { jobs: 'all', queues: [PUBLISH_QUEUE] },
  );
  const org = await createOrg(t.app, 'owner@approvals.test', 'Approving Co');
  ({ owner, orgId } = org);
  manager = (
    await addMember(t.app, owner, orgId, 'manager@approvals.test', {
      roleId: org.roleId('SocialMediaManager'),
    })
  ).actor;
  creator = (
    await addMember(t.app, owner, orgId, 'creator@approvals.test', {
      roleId: org.roleId('ContentCreator'),
    })
  ).actor;
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
    .platforms as Array<{ id: string }>;
  accountId = list[0]!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('the API description', () => {
  it('documents the approval routes in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = res.json().paths as Record<string, Record<string, unknown>>;
    expect(paths['/api/organizations/{orgId}/approvals']).toHaveProperty('get');
    expect(paths['/api/organizations/{orgId}/approvals/{postId}/approve']).toHaveProperty('post');
    expect(paths['/api/organizations/{orgId}/approvals/{postId}/reject']).toHaveProperty('post');
    expect(paths['/api/organizations/{orgId}/posts/{postId}/approvals']).toHaveProperty('get');
    expect(JSON.stringify(paths['/api/organizations/{orgId}']?.patch)).toContain(
      'requirePostApproval',
    );
  });
});

describe('the setting', () => {
  it('is off by default and only org:manage changes it', async () => {
    const org = await owner.call('GET', `/api/organizations/${orgId}`);
    expect(org.body.data.organization.requirePostApproval).toBe(false);
    expect((await setApproval(true, manager)).status).toBe(403);
    expect((await setApproval(true, creator)).status).toBe(403);
    const bad = await owner.call('PATCH', `/api/organizations/${orgId}`, {
      requirePostApproval: 'yes',
    });
    expect(bad.status).toBe(400);
    const again = await owner.call('GET', `/api/organizations/${orgId}`);
    expect(again.body.data.organization.requirePostApproval).toBe(false);
  });

  it('off: a ContentCreator schedules as before (jobs queued)', async () => {
    const post = await schedule(creator, 'No approval needed');
    expect(post.status).toBe('scheduled');
    expect(await waitingJobs(post.id)).toHaveLength(1);
  });

  it('migration 0020 gives post:approve to existing Admin and SocialMediaManager roles', async () => {
    const other = await createOrg(t.app, 'before@approvals.test', 'Before Approvals Co');
    // As the organization was before 0020: no role holds post:approve.
    await t.database.db.execute(
      sql`delete from role_permissions where permission = 'post:approve'
          and role_id in (select id from roles where organization_id = ${other.orgId})`,
    );
    const file = new URL('../../../drizzle/0020_post_approvals.sql', import.meta.url);
    const custom = (await readFile(file, 'utf8'))
      .split('--> statement-breakpoint')
      .filter((statement) => statement.includes('-- Custom'));
    expect(custom).toHaveLength(2);
    for (const statement of custom) await t.database.db.execute(sql.raw(statement));
    const rows = await all<{ name: string }>(
      sql`select r.name from roles r join role_permissions rp on rp.role_id = r.id
          where r.organization_id = ${other.orgId} and rp.permission = 'post:approve'
          order by r.name`,
    );
    expect(rows.map((r) => r.name)).toEqual(['Admin', 'SocialMediaManager']);
  });

  it('gives post:approve to Admin and SocialMediaManager only', async () => {
    const roles = (await owner.call('GET', `/api/organizations/${orgId}/roles`)).body as Array<{
      name: string;
      permissions: Array<{ name: string }>;
    }>;
    const holders = roles
      .filter((r) => r.permissions.some((p) => p.name === 'post:approve'))
      .map((r) => r.name);
    expect(holders.sort()).toEqual(['Admin', 'SocialMediaManager']);
  });
});

describe('with approval required', () => {
  beforeAll(async () => {
    const res = await setApproval(true);
    expect(res.status).toBe(200);
    expect(res.body.data.organization.requirePostApproval).toBe(true);
  });

  it('makes a ContentCreator’s schedule and publish pending, with no job', async () => {
    const post = await schedule(creator, 'Needs a look');
    expect(post.status).toBe('pending_approval');
    expect(await waitingJobs(post.id)).toHaveLength(0);
    // The approvers hear of it; the author does not.
    for (const approver of [owner, manager]) {
      const notes = await notificationsOf(approver);
      expect(notes.some((n) => n.type === 'POST_SUBMITTED' && n.postId === post.id)).toBe(true);
    }
    expect((await notificationsOf(creator)).some((n) => n.type === 'POST_SUBMITTED')).toBe(false);

    const now = await create(creator, { content: 'Right now please', action: 'publish' });
    expect(now.status).toBe(201);
    expect(now.body.data.post.status).toBe('pending_approval');
    expect(await waitingJobs(now.body.data.post.id)).toHaveLength(0);

    // A draft stays a draft; publishing it directly is refused.
    const draft = await create(creator, { content: 'Just a draft', action: 'draft' });
    expect(draft.body.data.post.status).toBe('draft');
    const direct = await creator.call(
      'PATCH',
      `/api/organizations/${orgId}/post/${draft.body.data.post.id}/publish`,
      { platforms: ['X'] },
    );
    expect(direct.status).toBe(403);
    const pendingNow = await manager.call(
      'PATCH',
      `/api/organizations/${orgId}/post/${post.id}/publish`,
      { platforms: ['X'] },
    );
    expect(pendingNow.status).toBe(409);
  });

  it('schedules an approver’s post directly', async () => {
    const post = await schedule(manager, 'Manager post');
    expect(post.status).toBe('scheduled');
    expect(await waitingJobs(post.id)).toHaveLength(1);
  });

  it('lists pending posts to approvers only', async () => {
    const post = await schedule(creator, 'In the queue');
    const queue = await manager.call('GET', `/api/organizations/${orgId}/approvals`);
    expect(queue.status).toBe(200);
    const ids = (queue.body.data.posts as PostDto[]).map((p) => p.id);
    expect(ids).toContain(post.id);
    expect(queue.body.data.count).toBe(ids.length);
    expect((queue.body.data.posts as PostDto[]).every((p) => p.status === 'pending_approval')).toBe(
      true,
    );
    const refused = await creator.call('GET', `/api/organizations/${orgId}/approvals`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('Approve Posts');
  });

  it('approve schedules it for its time with its jobs, and keeps who did it', async () => {
    const at = inHours(3);
    const post = await schedule(creator, 'Approve me', at);
    expect(
      (await creator.call('POST', `/api/organizations/${orgId}/approvals/${post.id}/approve`, {}))
        .status,
    ).toBe(403);

    const res = await manager.call(
      'POST',
      `/api/organizations/${orgId}/approvals/${post.id}/approve`,
      {},
    );
    expect(res.status).toBe(200);
    expect(res.body.data.post).toMatchObject({ status: 'scheduled', scheduledAt: at });
    const jobs = await waitingJobs(post.id);
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0]!.start_after).toISOString()).toBe(at);

    const again = await manager.call(
      'POST',
      `/api/organizations/${orgId}/approvals/${post.id}/approve`,
      {},
    );
    expect(again.status).toBe(409);

    const history = await creator.call(
      'GET',
      `/api/organizations/${orgId}/posts/${post.id}/approvals`,
    );
    expect(history.status).toBe(200);
    const events = history.body.data.events as Array<{
      action: string;
      user: { id: string } | null;
    }>;
    expect(events.map((e) => e.action)).toEqual(['submitted', 'approved']);
    expect(events[0]!.user?.id).toBe(creator.userId);
    expect(events[1]!.user?.id).toBe(manager.userId);
    const notes = await notificationsOf(creator);
    expect(notes.some((n) => n.type === 'POST_APPROVED' && n.postId === post.id)).toBe(true);

    // The author edits the approved post: back to pending, its job cancelled.
    const edited = await edit(creator, post.id, {
      content: 'Approve me (changed)',
      scheduledAt: at,
      action: 'schedule',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.post.status).toBe('pending_approval');
    expect(await waitingJobs(post.id)).toHaveLength(0);

    // Approved again, then a text-only change through the JSON edit: pending again.
    await manager.call('POST', `/api/organizations/${orgId}/approvals/${post.id}/approve`, {});
    const retext = await creator.call('PUT', `/api/organizations/${orgId}/posts/${post.id}`, {
      content: 'Approve me (changed twice)',
    });
    expect(retext.status).toBe(200);
    expect(retext.body.data.post.status).toBe('pending_approval');
    expect(await waitingJobs(post.id)).toHaveLength(0);
    // An approver's own text change leaves an approved post scheduled.
    await manager.call('POST', `/api/organizations/${orgId}/approvals/${post.id}/approve`, {});
    const own = await manager.call('PUT', `/api/organizations/${orgId}/posts/${post.id}`, {
      content: 'Approve me (by the manager)',
    });
    expect(own.body.data.post.status).toBe('scheduled');
  });

  it('an approver who edits a pending post and keeps its time approves it', async () => {
    const at = inHours(4);
    const post = await schedule(creator, 'Edit and approve me', at);
    const edited = await edit(manager, post.id, {
      content: 'Edited and approved',
      scheduledAt: at,
      action: 'schedule',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.post).toMatchObject({ status: 'scheduled', scheduledAt: at });
    expect(await waitingJobs(post.id)).toHaveLength(1);
    const history = await owner.call(
      'GET',
      `/api/organizations/${orgId}/posts/${post.id}/approvals`,
    );
    expect(
      (history.body.data.events as Array<{ action: string; user: { id: string } | null }>).map(
        (e) => [e.action, e.user?.id],
      ),
    ).toEqual([
      ['submitted', creator.userId],
      ['approved', manager.userId],
    ]);
  });

  it('asks before publishing a post whose time has passed, then publishes it now', async () => {
    const post = await schedule(creator, 'Late approval');
    await t.database.db.execute(
      sql`update posts set scheduled_at = now() - interval '1 hour' where id = ${post.id}`,
    );
    const asked = await manager.call(
      'POST',
      `/api/organizations/${orgId}/approvals/${post.id}/approve`,
      {},
    );
    expect(asked.status).toBe(409);
    expect(asked.body.details).toMatchObject({ timePassed: true });
    const still = await manager.call('GET', `/api/organizations/${orgId}/posts/${post.id}`);
    expect(still.body.data.post.status).toBe('pending_approval');

    const before = Date.now();
    const res = await manager.call(
      'POST',
      `/api/organizations/${orgId}/approvals/${post.id}/approve`,
      { publishNow: true },
    );
    expect(res.status).toBe(200);
    expect(['scheduled', 'publishing', 'published']).toContain(res.body.data.post.status);
    expect(new Date(res.body.data.post.scheduledAt).getTime()).toBeGreaterThanOrEqual(
      before - 1000,
    );
    const jobs = await all<{ id: string }>(
      sql`select j.id from pgboss.job j join post_targets pt on pt.job_id = j.id
          where pt.post_id = ${post.id}`,
    );
    expect(jobs).toHaveLength(1);
  });

  it('reject needs a reason, returns the post to draft and notifies its author', async () => {
    const post = await schedule(creator, 'Reject me');
    const empty = await manager.call(
      'POST',
      `/api/organizations/${orgId}/approvals/${post.id}/reject`,
      { reason: '   ' },
    );
    expect(empty.status).toBe(400);
    expect(
      (
        await creator.call('POST', `/api/organizations/${orgId}/approvals/${post.id}/reject`, {
          reason: 'no',
        })
      ).status,
    ).toBe(403);

    const res = await manager.call(
      'POST',
      `/api/organizations/${orgId}/approvals/${post.id}/reject`,
      { reason: 'Wrong hashtag' },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.post).toMatchObject({ status: 'draft', scheduledAt: null });
    expect(await waitingJobs(post.id)).toHaveLength(0);

    const notes = await notificationsOf(creator);
    const note = notes.find((n) => n.type === 'POST_REJECTED' && n.postId === post.id);
    expect(note?.message).toContain('Wrong hashtag');
    const history = await owner.call(
      'GET',
      `/api/organizations/${orgId}/posts/${post.id}/approvals`,
    );
    expect(history.body.data.events.at(-1)).toMatchObject({
      action: 'rejected',
      reason: 'Wrong hashtag',
      user: { id: manager.userId },
    });
  });

  it('keeps another organization’s posts out of reach (404) and its queue closed (403)', async () => {
    const post = await schedule(creator, 'Ours only');
    const other = await createOrg(t.app, 'other@approvals.test', 'Other Co');
    const via = (path: string) =>
      other.owner.call('POST', `/api/organizations/${other.orgId}/approvals/${post.id}/${path}`, {
        reason: 'Not yours',
      });
    expect((await via('approve')).status).toBe(404);
    expect((await via('reject')).status).toBe(404);
    const history = await other.owner.call(
      'GET',
      `/api/organizations/${other.orgId}/posts/${post.id}/approvals`,
    );
    expect(history.status).toBe(404);
    const theirs = await other.owner.call('GET', `/api/organizations/${other.orgId}/approvals`);
    expect((theirs.body.data.posts as PostDto[]).map((p) => p.id)).not.toContain(post.id);
    const direct = await other.owner.call(
      'POST',
      `/api/organizations/${orgId}/approvals/${post.id}/approve`,
      {},
    );
    expect(direct.status).toBe(403);
    const still = await owner.call('GET', `/api/organizations/${orgId}/posts/${post.id}`);
    expect(still.body.data.post.status).toBe('pending_approval');
  });

  it('off again: a ContentCreator’s schedule is scheduled', async () => {
    await setApproval(false);
    const post = await schedule(creator, 'Free again');
    expect(post.status).toBe('scheduled');
  });
});
