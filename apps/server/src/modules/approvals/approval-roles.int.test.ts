import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISH_QUEUE } from '../publishing/publish-queue.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { connectThroughSandbox } from '../../test/networks.js';

/** Approvals only for chosen roles (docs/product.md#approvals). */
let t: TestApp;
let owner: Actor;
let creator: Actor;
let writer: Actor;
let orgId: string;
let accountId: string;
let creatorRoleId: string;
let writerRoleId: string;

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

async function schedule(actor: Actor, text: string) {
  const body = await multipart({
    integrationIds: JSON.stringify([accountId]),
    content: text,
    scheduledAt: inHours(3),
    action: 'schedule',
  });
  const res = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.post as { id: string; status: string };
}

const patch = (body: unknown, actor = owner) =>
  actor.call('PATCH', `/api/organizations/${orgId}`, body);

beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'all', queues: [PUBLISH_QUEUE] });
  const org = await createOrg(t.app, 'owner@approval-roles.test', 'Chosen Roles Co');
  ({ owner, orgId } = org);
  creatorRoleId = org.roleId('ContentCreator');
  // A second role without post:approve whose members may also create posts.
  const role = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
    name: 'Writer',
    permissionIds: ['post:create', 'post:edit'],
  });
  expect(role.status).toBe(201);
  writerRoleId = role.body.data.role.id;
  creator = (
    await addMember(t.app, owner, orgId, 'creator@approval-roles.test', { roleId: creatorRoleId })
  ).actor;
  writer = (
    await addMember(t.app, owner, orgId, 'writer@approval-roles.test', { roleId: writerRoleId })
  ).actor;
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  const list = (await owner.call('GET', `/api/organizations/${orgId}/integrations`)).body.data
    .platforms as Array<{ id: string }>;
  accountId = list[0]!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('approval for chosen roles', () => {
  it('starts with no roles chosen: every member without post:approve submits', async () => {
    const on = await patch({ requirePostApproval: true });
    expect(on.status).toBe(200);
    expect(on.body.data.organization.postApprovalRoleIds).toEqual([]);
    expect((await schedule(creator, 'Everyone submits')).status).toBe('pending_approval');
    expect((await schedule(writer, 'Me too')).status).toBe('pending_approval');
  });

  it('with ContentCreator chosen: its members submit, a Writer schedules directly', async () => {
    const res = await patch({ postApprovalRoleIds: [creatorRoleId] });
    expect(res.status).toBe(200);
    expect(res.body.data.organization).toMatchObject({
      requirePostApproval: true,
      postApprovalRoleIds: [creatorRoleId],
    });
    const stored = await owner.call('GET', `/api/organizations/${orgId}`);
    expect(stored.body.data.organization.postApprovalRoleIds).toEqual([creatorRoleId]);

    expect((await schedule(creator, 'Chosen role')).status).toBe('pending_approval');
    expect((await schedule(writer, 'Other role')).status).toBe('scheduled');
    // The owner holds post:approve and never submits.
    expect((await schedule(owner, 'Approver')).status).toBe('scheduled');
  });

  it('keeps the choice when the role is renamed', async () => {
    const renamed = await owner.call('PUT', `/api/organizations/${orgId}/roles/${writerRoleId}`, {
      name: 'Copywriter',
      permissionIds: ['post:create', 'post:edit'],
    });
    expect(renamed.status).toBe(200);
    expect((await patch({ postApprovalRoleIds: [writerRoleId] })).status).toBe(200);
    const again = await owner.call('PUT', `/api/organizations/${orgId}/roles/${writerRoleId}`, {
      name: 'Writer',
      permissionIds: ['post:create', 'post:edit'],
    });
    expect(again.status).toBe(200);
    expect((await schedule(writer, 'Still chosen')).status).toBe('pending_approval');
    expect((await schedule(creator, 'Not chosen now')).status).toBe('scheduled');
  });

  it('refuses a role of another organization or a non-id (400) and keeps the choice', async () => {
    const other = await createOrg(t.app, 'other@approval-roles.test', 'Other Co');
    const foreign = await patch({ postApprovalRoleIds: [other.roleId('ContentCreator')] });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.body)).toContain('Choose roles of this organization.');
    expect((await patch({ postApprovalRoleIds: [writerRoleId, 'nope'] })).status).toBe(400);
    const stored = await owner.call('GET', `/api/organizations/${orgId}`);
    expect(stored.body.data.organization.postApprovalRoleIds).toEqual([writerRoleId]);
  });

  it('only org:manage changes the roles', async () => {
    expect((await patch({ postApprovalRoleIds: [] }, creator)).status).toBe(403);
  });

  it('an empty choice goes back to every member', async () => {
    const res = await patch({ postApprovalRoleIds: [] });
    expect(res.status).toBe(200);
    expect(res.body.data.organization.postApprovalRoleIds).toEqual([]);
    expect((await schedule(creator, 'All again')).status).toBe('pending_approval');
    expect((await schedule(writer, 'All again too')).status).toBe('pending_approval');
  });

  it('turning approval off lets every role schedule, whatever roles are chosen', async () => {
    expect((await patch({ postApprovalRoleIds: [creatorRoleId] })).status).toBe(200);
    expect((await patch({ requirePostApproval: false })).status).toBe(200);
    expect((await schedule(creator, 'Approval off')).status).toBe('scheduled');
  });

  it('deleting a chosen role takes it out of the choice', async () => {
    const temp = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Temporary',
      permissionIds: ['post:create'],
    });
    const tempId = temp.body.data.role.id as string;
    expect((await patch({ postApprovalRoleIds: [creatorRoleId, tempId] })).status).toBe(200);
    expect((await owner.call('DELETE', `/api/organizations/${orgId}/roles/${tempId}`)).status).toBe(
      200,
    );
    const stored = await owner.call('GET', `/api/organizations/${orgId}`);
    expect(stored.body.data.organization.postApprovalRoleIds).toEqual([creatorRoleId]);
  });
});
