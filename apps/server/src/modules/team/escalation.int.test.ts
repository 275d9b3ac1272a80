import { ORG_ROUTE_PERMISSIONS } from '@herald/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';

/**
 * Walks every route that hands out access with a manager who holds `org:manage` and
 * `member:invite` but not everything: none of them may raise anyone, themselves included, above
 * what the manager holds, and only an Admin gives the Admin role.
 */
let t: TestApp;
let owner: Actor;
let manager: Actor;
let orgId: string;
let roleId: (name: string) => string;
let managerRoleId: string;
let managerMemberId: string;
let creatorMemberId: string;
let adminMemberId: string;
const MANAGER_PERMISSIONS = ['org:manage', 'member:invite', 'post:create', 'post:edit'];

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId, roleId } = await createOrg(t.app, 'owner@escalation.test'));
  const role = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
    name: 'Team Lead',
    permissionIds: MANAGER_PERMISSIONS,
  });
  managerRoleId = role.body.data.role.id;
  const m = await addMember(t.app, owner, orgId, 'lead@escalation.test', {
    roleId: managerRoleId,
  });
  manager = m.actor;
  managerMemberId = m.memberId;
  creatorMemberId = (
    await addMember(t.app, owner, orgId, 'creator@escalation.test', {
      roleId: roleId('ContentCreator'),
    })
  ).memberId;
  adminMemberId = (
    await addMember(t.app, owner, orgId, 'admin2@escalation.test', { roleId: roleId('Admin') })
  ).memberId;
}, 60_000);
afterAll(() => t?.close());

async function rolesAndPermissions() {
  const members = (await owner.call('GET', `/api/organizations/${orgId}/members?pageSize=50`)).body
    .data.members as Array<{
    id: string;
    roleId: string;
    permissions: string[];
    accountIds: string[] | null;
  }>;
  const roles = (await owner.call('GET', `/api/organizations/${orgId}/roles`)).body as Array<{
    id: string;
    permissions: Array<{ name: string }>;
  }>;
  return JSON.stringify({
    members: members.map((m) => [m.id, m.roleId, [...m.permissions].sort(), m.accountIds]).sort(),
    roles: roles.map((r) => [r.id, r.permissions.map((p) => p.name).sort()]).sort(),
  });
}

describe('no escalation through any role-changing route', () => {
  it('covers every route that changes roles, members or invitations', () => {
    const changing = Object.keys(ORG_ROUTE_PERMISSIONS).filter((route) =>
      /^(POST|PUT|PATCH) .*(\/roles|\/members\/|\/member\/invite)/.test(route),
    );
    expect(changing.sort()).toEqual(
      [
        'POST /member/invite/:orgId',
        'POST /organizations/:orgId/roles',
        'PUT /organizations/:orgId/members/:memberId',
        'PUT /organizations/:orgId/members/:memberId/accounts',
        'PUT /organizations/:orgId/roles/:roleId',
      ].sort(),
    );
  });

  it('refuses each escalation with a 403 and changes nothing', async () => {
    const before = await rolesAndPermissions();
    const attempts: Array<[string, Promise<{ status: number; body: any }>]> = [
      [
        'make themselves Admin',
        manager.call('PUT', `/api/organizations/${orgId}/members/${managerMemberId}`, {
          roleId: roleId('Admin'),
        }),
      ],
      [
        'change their own role at all',
        manager.call('PUT', `/api/organizations/${orgId}/members/${managerMemberId}`, {
          roleId: roleId('ContentCreator'),
        }),
      ],
      [
        'change which accounts they reach',
        manager.call('PUT', `/api/organizations/${orgId}/members/${managerMemberId}/accounts`, {
          integrationIds: null,
        }),
      ],
      [
        'add permissions to the role they hold',
        manager.call('PUT', `/api/organizations/${orgId}/roles/${managerRoleId}`, {
          name: 'Team Lead',
          permissionIds: [...MANAGER_PERMISSIONS, 'billing:edit'],
        }),
      ],
      [
        'create a role with permissions they lack',
        manager.call('POST', `/api/organizations/${orgId}/roles`, {
          name: 'Shadow Admin',
          permissionIds: ['org:manage', 'subscription:manage'],
        }),
      ],
      [
        'widen another role beyond their own',
        manager.call('PUT', `/api/organizations/${orgId}/roles/${roleId('ContentCreator')}`, {
          name: 'ContentCreator',
          permissionIds: ['post:create', 'post:edit', 'account:disconnect'],
        }),
      ],
      [
        'make someone else Admin',
        manager.call('PUT', `/api/organizations/${orgId}/members/${creatorMemberId}`, {
          roleId: roleId('Admin'),
        }),
      ],
      [
        'give someone a role with permissions they lack',
        manager.call('PUT', `/api/organizations/${orgId}/members/${creatorMemberId}`, {
          roleId: roleId('SocialMediaManager'),
        }),
      ],
      [
        'demote an Admin',
        manager.call('PUT', `/api/organizations/${orgId}/members/${adminMemberId}`, {
          roleId: roleId('ContentCreator'),
        }),
      ],
      [
        'invite an Admin',
        manager.call('POST', `/api/member/invite/${orgId}`, {
          email: 'new.admin@escalation.test',
          roleId: roleId('Admin'),
        }),
      ],
      [
        'invite with permissions they lack',
        manager.call('POST', `/api/member/invite/${orgId}`, {
          email: 'new.smm@escalation.test',
          roleId: roleId('SocialMediaManager'),
        }),
      ],
    ];
    for (const [what, attempt] of attempts) {
      const res = await attempt;
      expect({ what, status: res.status }).toEqual({ what, status: 403 });
      expect(res.body.message).toMatch(/^(You cannot|Only an Admin)/);
    }
    expect(await rolesAndPermissions()).toBe(before);
  });

  it('still lets the manager grant what they hold, and an Admin grant anything', async () => {
    const within = await manager.call(
      'PUT',
      `/api/organizations/${orgId}/members/${creatorMemberId}`,
      { roleId: managerRoleId, permissions: ['post:create'] },
    );
    expect(within.status).toBe(200);
    expect(within.body.data.member.permissions).toEqual(['post:create']);
    const role = await manager.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Writer',
      permissionIds: ['post:create'],
    });
    expect(role.status).toBe(201);

    const promoted = await owner.call(
      'PUT',
      `/api/organizations/${orgId}/members/${managerMemberId}`,
      { roleId: roleId('Admin') },
    );
    expect(promoted.status).toBe(200);
    expect(promoted.body.data.member.permissions).toHaveLength(16);
  });
});
