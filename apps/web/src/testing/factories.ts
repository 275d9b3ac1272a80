import {
  PERMISSION_NAMES,
  type MeData,
  type MyOrganization,
  type Plan,
  type User,
} from '@herald/contract';

let sequence = 0;
const nextId = (prefix: string) => `${prefix}_${++sequence}`;

export function createUser(overrides: Partial<User> = {}): User {
  return {
    id: nextId('usr'),
    displayName: 'Ada Lovelace',
    email: 'ada@example.com',
    avatarUrl: null,
    timezone: 'Europe/London',
    isAdmin: false,
    createdAt: '2026-01-05T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * The /auth/me answer; `organizationId: null` means "no membership yet". By default the member is
 * the organization's Admin and holds every permission.
 */
export function createMe({
  user = {},
  organizationId = 'org_1',
  organizationName = 'Acme Studio',
  role = { id: 'role_admin', name: 'Admin' },
  permissions = PERMISSION_NAMES,
}: {
  user?: Partial<User>;
  organizationId?: string | null;
  organizationName?: string;
  role?: { id: string; name: string };
  permissions?: readonly string[];
} = {}): MeData {
  return {
    user: createUser(user),
    member: organizationId
      ? {
          id: nextId('mem'),
          organizationId,
          organization: { id: organizationId, name: organizationName },
          roleId: role.id,
          role,
          status: 'ACTIVE',
          permissions: [...permissions],
          accountIds: null,
        }
      : null,
  };
}

export function createPlan(overrides: Partial<Plan> = {}): Plan {
  return {
    id: nextId('plan'),
    name: 'Starter',
    description: 'For individuals getting started.',
    price: 0,
    billingCycle: 'MONTHLY',
    stripePriceId: null,
    providerMetadata: null,
    features: {
      invites: 1,
      postsPerDay: 5,
      organizations: 1,
      connectedPlatforms: 2,
      prioritySupport: false,
    },
    status: 'ACTIVE',
    popular: false,
    trialEligible: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The onboarding list's entry for the session's current membership. */
export function myOrganizationOf(me: MeData): MyOrganization {
  if (!me.member) throw new Error('This session has no membership.');
  return {
    id: me.member.organizationId,
    name: me.member.organization.name,
    defaultTimeZone: null,
    requirePostApproval: false,
    postApprovalRoleIds: [],
    ownerUserId: null,
    createdAt: '2026-01-10T09:00:00.000Z',
    memberId: me.member.id,
    role: me.member.role,
    isCurrent: true,
  };
}
