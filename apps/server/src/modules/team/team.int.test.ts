import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, signIn } from '../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('roles', () => {
  it('creates, edits and deletes a custom role with trimmed fields', async () => {
    const { owner, orgId } = await createOrg(t.app, 'roles.owner@example.com');
    const created = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: '  Editor  ',
      description: '  Edits things ',
      permissionIds: ['post:edit', 'post:create'],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.role).toMatchObject({
      name: 'Editor',
      description: 'Edits things',
      isAdmin: false,
      memberCount: 0,
    });
    expect(created.body.data.role.permissions.map((p: { name: string }) => p.name)).toEqual([
      'post:create',
      'post:edit',
    ]);
    const id = created.body.data.role.id;
    const edited = await owner.call('PUT', `/api/organizations/${orgId}/roles/${id}`, {
      name: 'Senior Editor',
      description: '',
      permissionIds: ['post:delete'],
    });
    expect(edited.body.data.role).toMatchObject({
      name: 'Senior Editor',
      description: null,
      permissions: [{ id: 'post:delete', name: 'post:delete', description: 'Delete Posts' }],
    });
    expect((await owner.call('DELETE', `/api/organizations/${orgId}/roles/${id}`)).status).toBe(
      200,
    );
    const names = (
      (await owner.call('GET', `/api/organizations/${orgId}/roles`)).body as Array<{ name: string }>
    ).map((r) => r.name);
    expect(names).not.toContain('Senior Editor');
  });

  it('answers the spec sentences for a blank name, no permissions and unknown permissions, and saves nothing', async () => {
    const { owner, orgId } = await createOrg(t.app, 'roles.bad@example.com');
    const blank = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: '   ',
      permissionIds: ['post:create'],
    });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toContain('Role name is required');
    const none = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Empty',
      permissionIds: [],
    });
    expect(none.body.message).toContain('At least one permission is required');
    const unknown = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Odd',
      permissionIds: ['nope'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('Unknown permission: nope.');
    const dupe = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'contentcreator',
      permissionIds: ['post:create'],
    });
    expect(dupe.status).toBe(409);
    expect((await owner.call('GET', `/api/organizations/${orgId}/roles`)).body).toHaveLength(4);
  });

  it('refuses to delete a role with assigned members, and to touch the Admin role', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, 'roles.busy@example.com');
    await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'holder@example.com',
      roleId: roleId('CustomerSupport'),
    });
    const busy = await owner.call(
      'DELETE',
      `/api/organizations/${orgId}/roles/${roleId('CustomerSupport')}`,
    );
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe('Cannot delete role with assigned members');
    const admin = await owner.call('PUT', `/api/organizations/${orgId}/roles/${roleId('Admin')}`, {
      name: 'Admin',
      permissionIds: ['post:create'],
    });
    expect(admin.status).toBe(409);
    expect(
      (await owner.call('DELETE', `/api/organizations/${orgId}/roles/${roleId('Admin')}`)).status,
    ).toBe(409);
  });
});

describe('members', () => {
  it('never leaves an organization without an active Admin', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, 'solo.admin@example.com');
    const ownerMemberId = (await owner.call('GET', '/api/auth/me')).body.data.member.id;
    const leave = await owner.call(
      'DELETE',
      `/api/organizations/${orgId}/members/${ownerMemberId}`,
    );
    expect(leave.status).toBe(409);
    expect(leave.body.message).toBe(
      'An organization needs at least one Admin. Make another member Admin first.',
    );
    // No one changes their own role, not even the last Admin stepping down.
    const demote = await owner.call('PUT', `/api/organizations/${orgId}/members/${ownerMemberId}`, {
      roleId: roleId('ContentCreator'),
    });
    expect(demote.status).toBe(403);
    expect(demote.body.message).toBe(
      'You cannot change your own role. Ask another Admin of this organization.',
    );

    // With a second Admin, the first is stepped down by them and may then leave.
    const second = await addMember(t.app, owner, orgId, 'second.admin@example.com', {
      roleId: roleId('Admin'),
    });
    expect(
      (
        await second.actor.call('PUT', `/api/organizations/${orgId}/members/${ownerMemberId}`, {
          roleId: roleId('ContentCreator'),
        })
      ).status,
    ).toBe(200);
    expect(
      (await owner.call('DELETE', `/api/organizations/${orgId}/members/${ownerMemberId}`)).status,
    ).toBe(200);
    expect((await owner.call('GET', '/api/auth/me')).body.data.member).toBeNull();
    expect((await owner.call('GET', `/api/organizations/${orgId}/members`)).status).toBe(403);
  });

  it('refuses a narrowed Admin, by role change or by invitation', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, 'narrow.admin@example.com');
    const other = await addMember(t.app, owner, orgId, 'narrowed@example.com', {
      roleId: roleId('ContentCreator'),
    });
    const res = await owner.call('PUT', `/api/organizations/${orgId}/members/${other.memberId}`, {
      roleId: roleId('Admin'),
      permissions: ['post:create'],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'The Admin role always has every permission; choose another role to give fewer.',
    );
    const inv = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'half.admin@example.com',
      roleId: roleId('Admin'),
      permissions: ['member:invite'],
    });
    expect(inv.status).toBe(400);
    expect((await owner.call('GET', '/api/auth/me')).body.data.member.permissions).toHaveLength(16);
  });

  it('lets a member leave without member:remove, but not remove others', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, 'leave.owner@example.com');
    const a = await addMember(t.app, owner, orgId, 'leaver@example.com', {
      roleId: roleId('ContentCreator'),
    });
    const b = await addMember(t.app, owner, orgId, 'stayer@example.com', {
      roleId: roleId('ContentCreator'),
    });
    const other = await a.actor.call('DELETE', `/api/organizations/${orgId}/members/${b.memberId}`);
    expect(other.status).toBe(403);
    expect(
      (await a.actor.call('DELETE', `/api/organizations/${orgId}/members/${a.memberId}`)).status,
    ).toBe(200);
    const emails = (
      await owner.call('GET', `/api/organizations/${orgId}/members`)
    ).body.data.members.map((m: { email: string }) => m.email);
    expect(emails).toEqual(expect.arrayContaining(['stayer@example.com']));
    expect(emails).not.toContain('leaver@example.com');
  });

  it('lists members with role, user, status and joinedAt, searchable and paged', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, 'list.owner@example.com');
    await addMember(t.app, owner, orgId, 'alice@example.com', {
      roleId: roleId('CustomerSupport'),
    });
    await owner.call('POST', `/api/member/invite/${orgId}`, { email: 'bob@example.com' });
    const all = await owner.call('GET', `/api/organizations/${orgId}/members`);
    expect(all.body.meta.totalCount).toBe(3);
    const alice = all.body.data.members.find(
      (m: { email: string }) => m.email === 'alice@example.com',
    );
    expect(alice).toMatchObject({
      status: 'ACTIVE',
      role: { name: 'CustomerSupport' },
      permissions: ['dm:send', 'dm:view'],
      user: { displayName: 'alice' },
    });
    expect(alice.joinedAt).toBeTruthy();
    const search = await owner.call('GET', `/api/organizations/${orgId}/members?search=BOB`);
    expect(
      search.body.data.members.map((m: { email: string; status: string }) => [m.email, m.status]),
    ).toEqual([['bob@example.com', 'PENDING']]);
    const paged = await owner.call('GET', `/api/organizations/${orgId}/members?page=2&pageSize=2`);
    expect(paged.body.data.members).toHaveLength(1);
    expect(paged.body.meta).toEqual({
      page: 2,
      pageSize: 2,
      totalCount: 3,
      invitationEmail: false,
    });
  });

  it('withdraws a pending invitation when its member row is removed', async () => {
    const { owner, orgId } = await createOrg(t.app, 'withdraw.owner@example.com');
    const inv = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'withdrawn@example.com',
    });
    expect(
      (await owner.call('DELETE', `/api/organizations/${orgId}/members/${inv.body.data.member.id}`))
        .status,
    ).toBe(200);
    const person = await signIn(t.app, 'withdrawn@example.com');
    expect((await person.call('GET', '/api/member/pending')).body.data.pendingInvites).toEqual([]);
    const token = new URL(inv.body.data.inviteUrl).searchParams.get('token');
    expect((await person.call('POST', '/api/member/accept-invite', { token })).status).toBe(404);
  });
});
