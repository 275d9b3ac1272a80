import type { MeData, Plan, User } from '@herald/contract';

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

/** The /auth/me answer; `organizationId: null` means "no membership yet". */
export function createMe({
  user = {},
  organizationId = 'org_1',
}: { user?: Partial<User>; organizationId?: string | null } = {}): MeData {
  return {
    user: createUser(user),
    member: organizationId
      ? { id: nextId('mem'), organizationId, roleId: 'role_admin', status: 'ACTIVE' }
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
