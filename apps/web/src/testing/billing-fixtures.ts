import type { BillingGroup, Plan, Subscription } from '@herald/contract';
import { createPlan } from './factories';
import { ok, type FakeReply, type Handler } from './fake-server';

let sequence = 0;

/** The seeded ladder of plans (Starter, Basic, Pro) with stable ids. */
export function seededPlans(): Plan[] {
  return [
    createPlan({ id: 'plan_starter', name: 'Starter', price: 9 }),
    createPlan({
      id: 'plan_basic',
      name: 'Basic',
      price: 29,
      popular: true,
      description: 'For small teams publishing every day.',
      features: {
        invites: 10,
        postsPerDay: 50,
        organizations: 2,
        connectedPlatforms: 10,
        prioritySupport: false,
      },
    }),
    createPlan({
      id: 'plan_pro',
      name: 'Pro',
      price: 79.5,
      features: {
        invites: 50,
        postsPerDay: 250,
        organizations: 10,
        connectedPlatforms: 40,
        prioritySupport: true,
      },
    }),
  ];
}

/** A subscription as `GET …/subscription` answers it; by default a fresh Basic trial. */
export function createSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: `sub_${++sequence}`,
    status: 'TRIALING',
    plan: { id: 'plan_basic', name: 'Basic' },
    provider: 'none',
    trialUsed: true,
    trialStart: '2026-03-01T10:00:00.000Z',
    trialEnd: '2026-03-08T10:00:00.000Z',
    trialDaysRemaining: 7,
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    coveredBy: null,
    ...overrides,
  };
}

/** A paid subscription in force. */
export function activeSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return createSubscription({
    status: 'ACTIVE',
    trialUsed: false,
    trialStart: null,
    trialEnd: null,
    trialDaysRemaining: null,
    currentPeriodEnd: '2026-04-01T10:00:00.000Z',
    ...overrides,
  });
}

/** The read routes of /pricing for one organization. */
export function billingRoutes({
  orgId = 'org_1',
  subscription = null,
  memberCount = 1,
  provider = 'none',
  group = null,
}: {
  orgId?: string;
  subscription?: Subscription | null;
  memberCount?: number;
  provider?: 'none' | 'stripe';
  group?: BillingGroup | null;
} = {}): Record<string, Handler | FakeReply> {
  return {
    'GET /billing/config': ok({ provider, trialDays: 7 }),
    [`GET /organizations/${orgId}/subscription`]: ok({ subscription }),
    [`GET /organizations/${orgId}/billing/group`]: ok({ group }),
    [`GET /organizations/${orgId}/members`]: {
      status: 200,
      body: {
        status: 'success',
        data: { members: [] },
        meta: { page: 1, pageSize: 1, totalCount: memberCount },
      },
    },
  };
}
