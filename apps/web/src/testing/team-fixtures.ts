import {
  DEFAULT_ROLES,
  PERMISSIONS,
  type Member,
  type PendingInvite,
  type Permission,
  type Role,
} from '@herald/contract';
import type { FakeReply, Handler } from './fake-server';

let sequence = 0;
const nextId = (prefix: string) => `${prefix}_${++sequence}`;

/** `GET /permissions` as the server answers it: id = name, description = label. */
export function permissionCatalog(): Permission[] {
  return PERMISSIONS.map((p) => ({ id: p.name, name: p.name, description: p.label }));
}

const asPermissions = (names: readonly string[]) =>
  permissionCatalog().filter((p) => names.includes(p.name));

export function createRole(
  overrides: Partial<Omit<Role, 'permissions'>> & {
    permissions?: readonly string[];
  } = {},
): Role {
  const { permissions = ['post:create'], ...rest } = overrides;
  return {
    id: nextId('role'),
    name: 'Custom',
    description: null,
    isAdmin: false,
    memberCount: 0,
    ...rest,
    permissions: asPermissions(permissions),
  };
}

/** The four roles every organization starts with (docs/product.md#roles-and-permissions), with stable ids. */
export function defaultRoles(memberCounts: Partial<Record<string, number>> = {}): Role[] {
  const ids: Record<string, string> = {
    Admin: 'role_admin',
    SocialMediaManager: 'role_smm',
    ContentCreator: 'role_cc',
    CustomerSupport: 'role_cs',
  };
  return Object.entries(DEFAULT_ROLES).map(([name, permissions]) =>
    createRole({
      id: ids[name] ?? nextId('role'),
      name,
      permissions,
      isAdmin: name === 'Admin',
      memberCount: memberCounts[name] ?? 0,
    }),
  );
}

export function createMember(overrides: Partial<Member> = {}): Member {
  const id = nextId('mem');
  return {
    id,
    email: `${id}@example.com`,
    status: 'ACTIVE',
    roleId: 'role_cc',
    role: { id: 'role_cc', name: 'ContentCreator' },
    permissions: ['post:create', 'post:edit'],
    accountIds: null,
    user: { id: nextId('usr'), displayName: null, avatarUrl: null },
    joinedAt: '2026-02-01T10:00:00.000Z',
    invitedAt: '2026-01-30T10:00:00.000Z',
    organizationId: 'org_1',
    ...overrides,
  };
}

export function createPendingInvite(overrides: Partial<PendingInvite> = {}): PendingInvite {
  return {
    id: nextId('inv'),
    inviteToken: null,
    organization: { id: nextId('org'), name: 'Globex' },
    inviter: { email: 'boss@globex.example', displayName: 'Hank Scorpio' },
    role: { id: 'role_cc', name: 'ContentCreator' },
    expiresAt: '2026-12-31T00:00:00.000Z',
    ...overrides,
  };
}

/** The read routes of the team screens for one organization. */
export function teamRoutes({
  orgId = 'org_1',
  roles = defaultRoles(),
  members = [],
  invitationEmail = false,
}: {
  orgId?: string;
  roles?: Role[];
  members?: Member[];
  /** Whether the server says it can email invitations (SMTP_URL configured). */
  invitationEmail?: boolean;
} = {}): Record<string, Handler | FakeReply> {
  return {
    'GET /permissions': { status: 200, body: permissionCatalog() },
    [`GET /organizations/${orgId}/roles`]: { status: 200, body: roles },
    [`GET /organizations/${orgId}/members`]: {
      status: 200,
      body: {
        status: 'success',
        data: { members },
        meta: { page: 1, pageSize: 200, totalCount: members.length, invitationEmail },
      },
    },
  };
}
