import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { notifications, subscriptions } from '../../db/schema.js';
import { sweepSubscriptions } from '../../jobs/subscriptions-sweep.job.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, planId, signIn } from '../../test/factories.js';
import { trialDaysRemaining } from './billing.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'ops@example.com' });
});
afterAll(() => t.close());

const sub = (orgId: string) =>
  t.database.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, orgId))
    .then((r) => r[0]!);
const notificationsOf = async (orgId: string, type: string) =>
  (
    await t.database.db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.organizationId, orgId), sql`${notifications.type} = ${type}`))
  )[0]!.n;

describe('the free trial', () => {
  it('starts a 7-day trial without a card, once per organization', async () => {
    const { owner, orgId } = await createOrg(t.app, 'trial.owner@example.com', 'Trial Co', {
      trial: null,
    });
    expect(
      (await owner.call('GET', `/api/organizations/${orgId}/subscription`)).body.data.subscription,
    ).toBeNull();
    const basic = await planId(t.app, 'Basic');
    const res = await owner.call('POST', `/api/organizations/${orgId}/subscribe/trial`, {
      planId: basic,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.subscription).toMatchObject({
      status: 'TRIALING',
      plan: { name: 'Basic' },
      trialDaysRemaining: 7,
      trialUsed: true,
    });
    const end =
      new Date(res.body.data.subscription.trialEnd).getTime() -
      new Date(res.body.data.subscription.trialStart).getTime();
    expect(end).toBe(7 * 24 * 60 * 60 * 1000);
    expect(await notificationsOf(orgId, 'SUBSCRIPTION_UPDATE')).toBe(1);

    const again = await owner.call('POST', `/api/organizations/${orgId}/subscribe/trial`, {
      planId: await planId(t.app, 'Pro'),
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already/);
    expect((await sub(orgId)).planId).toBe(basic);
  });

  it('counts days remaining as the ceiling, never below zero', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(trialDaysRemaining(new Date('2026-01-03T12:00:00Z'), now)).toBe(3);
    expect(trialDaysRemaining(new Date('2026-01-01T00:00:01Z'), now)).toBe(1);
    expect(trialDaysRemaining(new Date('2025-12-30T00:00:00Z'), now)).toBe(0);
  });

  it('ends at trialEnd: the gate closes at once and the sweep job records EXPIRED with a notification', async () => {
    const { owner, orgId } = await createOrg(t.app, 'expiring@example.com', 'Expiring', {
      trial: 'Basic',
    });
    expect(
      (await owner.call('POST', `/api/member/invite/${orgId}`, { email: 'before@example.com' }))
        .status,
    ).toBe(201);
    await t.database.db
      .update(subscriptions)
      .set({ trialEnd: sql`now() - interval '1 second'` })
      .where(eq(subscriptions.organizationId, orgId));
    expect(
      (await owner.call('GET', `/api/organizations/${orgId}/subscription`)).body.data.subscription
        .status,
    ).toBe('EXPIRED');
    const refused = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'after@example.com',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('No active subscription found. Please subscribe to a plan.');
    const before = await notificationsOf(orgId, 'SUBSCRIPTION_UPDATE');
    const swept = await sweepSubscriptions(t.database.db);
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect((await sub(orgId)).status).toBe('EXPIRED');
    expect(await notificationsOf(orgId, 'SUBSCRIPTION_UPDATE')).toBe(before + 1);
    expect((await sweepSubscriptions(t.database.db)).expired).toBe(0);
  });

  it('refuses a trial of a plan that offers none, and unknown or inactive plans', async () => {
    const ops = await signIn(t.app, 'ops@example.com');
    const plan = await ops.call('POST', '/api/plans', {
      name: 'Enterprise',
      description: 'Custom',
      price: 499,
      features: {
        invites: 500,
        postsPerDay: 1000,
        organizations: 50,
        connectedPlatforms: 100,
        prioritySupport: true,
      },
      trialEligible: false,
    });
    expect(plan.status).toBe(201);
    const { owner, orgId } = await createOrg(t.app, 'picky@example.com', 'Picky', { trial: null });
    const noTrial = await owner.call('POST', `/api/organizations/${orgId}/subscribe/trial`, {
      planId: plan.body.data.plan.id,
    });
    expect(noTrial.status).toBe(400);
    expect(noTrial.body.message).toBe('The Enterprise plan does not offer a free trial.');
    const unknown = await owner.call('POST', `/api/organizations/${orgId}/subscribe/trial`, {
      planId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    await ops.call('PUT', `/api/plans/${plan.body.data.plan.id}`, {
      ...plan.body.data.plan,
      status: 'INACTIVE',
    });
    const inactive = await owner.call(
      'POST',
      `/api/organizations/${orgId}/subscription/subscribe`,
      { planId: plan.body.data.plan.id },
    );
    expect(inactive.status).toBe(400);
    expect(inactive.body.message).toMatch(/no longer offered/);
    expect(
      (await owner.call('GET', `/api/organizations/${orgId}/subscription`)).body.data.subscription,
    ).toBeNull();
  });
});

describe('self-billed subscriptions (provider none)', () => {
  it('activates at once, refuses the same plan twice, and cancel keeps access to the period end', async () => {
    const { owner, orgId } = await createOrg(t.app, 'selfbilled@example.com', 'Self Billed', {
      trial: null,
    });
    const basic = await planId(t.app, 'Basic');
    const res = await owner.call('POST', `/api/organizations/${orgId}/subscription/subscribe`, {
      planId: basic,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      checkoutUrl: null,
      subscription: { status: 'ACTIVE', provider: 'none', plan: { name: 'Basic' } },
    });
    const period = new Date(res.body.data.subscription.currentPeriodEnd).getTime() - Date.now();
    expect(period).toBeGreaterThan(27 * 86_400_000);
    expect(
      (
        await owner.call('POST', `/api/organizations/${orgId}/subscription/subscribe`, {
          planId: basic,
        })
      ).status,
    ).toBe(409);

    const cancelled = await owner.call('POST', `/api/organizations/${orgId}/subscription/cancel`);
    expect(cancelled.body.data.subscription).toMatchObject({
      status: 'ACTIVE',
      cancelAtPeriodEnd: true,
    });
    expect(
      (await owner.call('POST', `/api/member/invite/${orgId}`, { email: 'still@example.com' }))
        .status,
    ).toBe(201);
    expect(
      (await owner.call('POST', `/api/organizations/${orgId}/subscription/cancel`)).status,
    ).toBe(409);

    await t.database.db
      .update(subscriptions)
      .set({ currentPeriodEnd: sql`now() - interval '1 second'` })
      .where(eq(subscriptions.organizationId, orgId));
    await sweepSubscriptions(t.database.db);
    expect((await sub(orgId)).status).toBe('CANCELED');
    expect(
      (await owner.call('POST', `/api/member/invite/${orgId}`, { email: 'late2@example.com' }))
        .status,
    ).toBe(403);
  });

  it('cancels a trial at once', async () => {
    const { owner, orgId } = await createOrg(t.app, 'trial.cancel@example.com', 'Short Trial', {
      trial: 'Basic',
    });
    const res = await owner.call('POST', `/api/organizations/${orgId}/subscription/cancel`);
    expect(res.body.data.subscription).toMatchObject({ status: 'CANCELED', trialUsed: true });
    expect(
      (
        await owner.call('POST', `/api/organizations/${orgId}/subscribe/trial`, {
          planId: await planId(t.app, 'Basic'),
        })
      ).status,
    ).toBe(409);
  });
});

describe('plan limits', () => {
  it('caps members plus pending invitations at the plan’s invites', async () => {
    const { owner, orgId } = await createOrg(t.app, 'starter.owner@example.com', 'Small', {
      trial: 'Starter',
    });
    expect(
      (await owner.call('POST', `/api/member/invite/${orgId}`, { email: 'seat2@example.com' }))
        .status,
    ).toBe(201);
    const third = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'seat3@example.com',
    });
    expect(third.status).toBe(403);
    expect(third.body.message).toBe(
      'Your Starter plan allows 2 team members, pending invitations included. Remove someone or upgrade your plan to invite more.',
    );
  });

  it('caps the organizations a user owns by what their plan covers', async () => {
    const { owner } = await createOrg(t.app, 'owner.limit@example.com', 'Only One', {
      trial: 'Starter',
    });
    const second = await owner.call('POST', '/api/organizations', { name: 'Second' });
    expect(second.status).toBe(403);
    expect(second.body.message).toBe(
      'Your Starter plan covers 1 organization and you own 1. Upgrade to Basic to add more, or transfer one you no longer manage to one of its Admins.',
    );

    const { owner: free } = await createOrg(t.app, 'owner.free@example.com', 'Free', {
      trial: null,
    });
    const noPlan = await free.call('POST', '/api/organizations', { name: 'Another' });
    expect(noPlan.status).toBe(403);
    expect(noPlan.body.message).toMatch(/^Without a plan you can own one organization/);

    const { owner: basic } = await createOrg(t.app, 'owner.basic@example.com', 'Basic One', {
      trial: 'Basic',
    });
    expect((await basic.call('POST', '/api/organizations', { name: 'Basic Two' })).status).toBe(
      201,
    );
    expect((await basic.call('POST', '/api/organizations', { name: 'Basic Three' })).status).toBe(
      403,
    );
  });

  it('lets a member who does not own organizations join others freely', async () => {
    const { owner, orgId } = await createOrg(t.app, 'joiner.owner@example.com', 'Joinable');
    const joiner = await addMember(t.app, owner, orgId, 'joiner@example.com');
    expect((await joiner.actor.call('POST', '/api/organizations', { name: 'My Own' })).status).toBe(
      201,
    );
  });
});

describe('plans', () => {
  const features = {
    invites: 3,
    postsPerDay: 5,
    organizations: 1,
    connectedPlatforms: 2,
    prioritySupport: false,
  };

  it('seeds a ladder with Basic marked popular, and serves only active plans publicly', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/plans' });
    const plans = res.json().data.plans as Array<{
      name: string;
      popular: boolean;
      status: string;
      price: number;
    }>;
    expect(plans.slice(0, 3).map((p) => p.name)).toEqual(['Starter', 'Basic', 'Pro']);
    expect(plans.find((p) => p.name === 'Basic')!.popular).toBe(true);
    expect(plans.every((p) => p.status === 'ACTIVE')).toBe(true);
    expect(plans[1]!.price).toBe(29);
  });

  it('lets only operators create and edit plans, with the admin form rules', async () => {
    const ops = await signIn(t.app, 'ops@example.com');
    const someone = await signIn(t.app, 'not.ops@example.com');
    const body = {
      name: 'Team',
      description: 'For teams',
      price: 12.5,
      billingCycle: 'MONTHLY',
      features,
      status: 'ACTIVE',
    };
    expect((await someone.call('POST', '/api/plans', body)).status).toBe(403);
    const bad = [
      [{ ...body, price: -1 }, 'Price cannot be negative.'],
      [{ ...body, price: 'ten' }, 'Price must be a number.'],
      [{ ...body, name: '  ' }, 'Name is required.'],
      [{ ...body, description: '' }, 'Description is required.'],
      [
        { ...body, features: { ...features, invites: 1.5 } },
        'Invites must be a whole number of at least 1.',
      ],
      [
        { ...body, features: { ...features, postsPerDay: 0 } },
        'Posts per day must be a whole number of at least 1.',
      ],
    ] as const;
    for (const [payload, message] of bad) {
      const res = await ops.call('POST', '/api/plans', payload);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    }
    const created = await ops.call('POST', '/api/plans', { ...body, status: 'INACTIVE' });
    expect(created.status).toBe(201);
    expect(created.body.data.plan).toMatchObject({
      name: 'Team',
      price: 12.5,
      status: 'INACTIVE',
      stripePriceId: null,
    });
    const id = created.body.data.plan.id;
    expect((await t.app.inject({ method: 'GET', url: `/api/plans/${id}` })).statusCode).toBe(404);
    expect((await ops.call('GET', `/api/plans/${id}`)).status).toBe(200);
    const page = await ops.call('GET', '/api/plans?page=1&pageSize=50');
    expect(page.body.meta.totalCount).toBe(page.body.data.plans.length);
    expect(page.body.data.plans.map((p: { id: string }) => p.id)).toContain(id);
    const publicList = (await t.app.inject({ method: 'GET', url: '/api/plans' }))
      .json()
      .data.plans.map((p: { id: string }) => p.id);
    expect(publicList).not.toContain(id);
    const edited = await ops.call('PUT', `/api/plans/${id}`, {
      ...body,
      price: 15,
      status: 'ACTIVE',
      stripePriceId: 'price_team',
    });
    expect(edited.body.data.plan).toMatchObject({
      price: 15,
      status: 'ACTIVE',
      stripePriceId: 'price_team',
    });
  });
});
