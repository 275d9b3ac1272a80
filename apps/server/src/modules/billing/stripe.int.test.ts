import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { notifications, stripeEvents, subscriptions } from '../../db/schema.js';
import { type StripeEmulator, startStripeEmulator } from '../../sandbox/stripe/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg, planId, signIn } from '../../test/factories.js';
import { createStripeClient, StripeBilling } from './billing-provider.js';

const WEBHOOK_SECRET = 'whsec_test_herald';
let t: TestApp;
let stripe: StripeEmulator;

beforeAll(async () => {
  // The emulator delivers webhooks to the app; the app is built once the emulator has its URL.
  let deliverTo: TestApp | null = null;
  stripe = await startStripeEmulator({
    webhookSecret: WEBHOOK_SECRET,
    async deliver(payload, header) {
      const res = await deliverTo!.app.inject({
        method: 'POST',
        url: '/api/billing/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        payload,
      });
      return { status: res.statusCode };
    },
  });
  const billing = new StripeBilling(
    await createStripeClient({
      secretKey: 'sk_test_herald',
      webhookSecret: WEBHOOK_SECRET,
      apiUrl: stripe.url,
    }),
    WEBHOOK_SECRET,
  );
  t = await createTestApp({ ADMIN_EMAILS: 'ops@example.com' }, { billing });
  deliverTo = t;
  const ops = await signIn(t.app, 'ops@example.com');
  const basic = await ops.call('GET', `/api/plans/${await planId(t.app, 'Basic')}`);
  await ops.call('PUT', `/api/plans/${basic.body.data.plan.id}`, {
    ...basic.body.data.plan,
    stripePriceId: 'price_basic_monthly',
  });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const subOf = (orgId: string) =>
  t.database.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, orgId))
    .then((r) => r[0] ?? null);
const eventsCount = async () =>
  (await t.database.db.select({ n: count() }).from(stripeEvents))[0]!.n;
const notificationCount = async (orgId: string, type: string) =>
  (
    await t.database.db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.organizationId, orgId), sql`${notifications.type} = ${type}`))
  )[0]!.n;

describe('subscribing through Stripe', () => {
  it('goes through Checkout, and the signed webhooks activate the plan, once', async () => {
    const { owner, orgId } = await createOrg(t.app, 'stripe.buyer@example.com', 'Stripe Buyer', {
      trial: null,
    });
    const res = await owner.call('POST', `/api/organizations/${orgId}/subscription/subscribe`, {
      planId: await planId(t.app, 'Basic'),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.subscription).toBeNull();
    const checkoutUrl: string = res.body.data.checkoutUrl;
    expect(checkoutUrl.startsWith(`${stripe.url}/checkout/cs_test_`)).toBe(true);
    const session = stripe.sessions.get(checkoutUrl.split('/').pop()!)!;
    expect(session).toMatchObject({
      price: 'price_basic_monthly',
      customer_email: 'stripe.buyer@example.com',
      client_reference_id: orgId,
      success_url: 'http://localhost:3000/pricing?checkout=success',
    });

    // Nothing changes until Stripe says the buyer paid.
    expect(await subOf(orgId)).toBeNull();
    await stripe.completeCheckout(session.id as string);
    expect(stripe.delivered.map((d) => d.status)).toEqual(expect.arrayContaining([200]));
    const row = await subOf(orgId);
    expect(row).toMatchObject({
      status: 'ACTIVE',
      provider: 'stripe',
      stripeSubscriptionId: session.subscription,
      stripeCustomerId: session.customer,
    });
    expect(row!.currentPeriodEnd!.getTime()).toBeGreaterThan(Date.now() + 25 * 86_400_000);
    const api = (await owner.call('GET', `/api/organizations/${orgId}/subscription`)).body.data
      .subscription;
    expect(api).toMatchObject({ status: 'ACTIVE', plan: { name: 'Basic' }, provider: 'stripe' });
    expect(
      (await owner.call('POST', `/api/member/invite/${orgId}`, { email: 'paid.seat@example.com' }))
        .status,
    ).toBe(201);

    // A second Checkout would start a second paid subscription: plan changes go through the portal.
    const again = await owner.call('POST', `/api/organizations/${orgId}/subscription/subscribe`, {
      planId: await planId(t.app, 'Pro'),
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      'Your organization already pays for Basic. Change plans with Manage billing.',
    );

    // A replayed event is acknowledged and changes nothing.
    const before = {
      events: await eventsCount(),
      notes: await notificationCount(orgId, 'SUBSCRIPTION_UPDATE'),
    };
    const first = stripe.delivered.find((d) => d.payload.includes('"checkout.session.completed"'))!;
    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': first.header },
      payload: first.payload,
    });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().data.message).toBe('Event already processed.');
    expect(await eventsCount()).toBe(before.events);
    expect(await notificationCount(orgId, 'SUBSCRIPTION_UPDATE')).toBe(before.notes);
  });

  it('refuses a forged webhook and one with no signature, changing nothing', async () => {
    const { orgId } = await createOrg(t.app, 'forged.target@example.com', 'Forged', {
      trial: null,
    });
    const before = await eventsCount();
    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: 'cs_x',
          object: 'checkout.session',
          metadata: { organizationId: orgId, planId: await planId(t.app, 'Pro') },
          customer: 'cus_evil',
          subscription: null,
        },
      },
    });
    const forged = await stripe.deliverForged(payload);
    expect(forged.status).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().message).toBe('The Stripe signature does not match this webhook body.');
    expect(await subOf(orgId)).toBeNull();
    expect(await eventsCount()).toBe(before);
  });

  it('refuses events for an unknown customer without recording them', async () => {
    const before = await eventsCount();
    const event = await stripe.failPayment('cus_nobody');
    expect(stripe.delivered.at(-1)!.status).toBe(404);
    const [row] = await t.database.db
      .select()
      .from(stripeEvents)
      .where(eq(stripeEvents.id, event.id));
    expect(row).toBeUndefined();
    expect(await eventsCount()).toBe(before);
  });

  it('marks a failed payment PAST_DUE with a PAYMENT_ISSUE notification, and a paid invoice restores it', async () => {
    const { owner, orgId } = await createOrg(t.app, 'late.payer@example.com', 'Late Payer', {
      trial: null,
    });
    const res = await owner.call('POST', `/api/organizations/${orgId}/subscription/subscribe`, {
      planId: await planId(t.app, 'Basic'),
    });
    const session = await stripe.completeCheckout(
      (res.body.data.checkoutUrl as string).split('/').pop()!,
    );
    await stripe.failPayment(session.customer as string);
    expect((await subOf(orgId))!.status).toBe('PAST_DUE');
    expect(await notificationCount(orgId, 'PAYMENT_ISSUE')).toBe(1);
    expect(
      (await owner.call('POST', `/api/member/invite/${orgId}`, { email: 'blocked@example.com' }))
        .status,
    ).toBe(403);
    await stripe.payInvoice(session.customer as string);
    expect((await subOf(orgId))!.status).toBe('ACTIVE');
  });

  it('cancels at period end through Stripe, opens the portal, and ends on subscription deletion', async () => {
    const { owner, orgId } = await createOrg(t.app, 'leaving.payer@example.com', 'Leaving', {
      trial: null,
    });
    const res = await owner.call('POST', `/api/organizations/${orgId}/subscription/subscribe`, {
      planId: await planId(t.app, 'Basic'),
    });
    const session = await stripe.completeCheckout(
      (res.body.data.checkoutUrl as string).split('/').pop()!,
    );

    const portal = await owner.call('POST', `/api/organizations/${orgId}/billing/portal`);
    expect(portal.status).toBe(200);
    expect(portal.body.data.url).toBe(`${stripe.url}/portal/${String(session.customer)}`);

    const cancelled = await owner.call('POST', `/api/organizations/${orgId}/subscription/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.subscription).toMatchObject({
      status: 'ACTIVE',
      cancelAtPeriodEnd: true,
    });
    expect(stripe.subscriptions.get(session.subscription as string)!.cancel_at_period_end).toBe(
      true,
    );
    expect((await subOf(orgId))!.cancelAtPeriodEnd).toBe(true);

    await stripe.endSubscription(session.subscription as string);
    expect((await subOf(orgId))!.status).toBe('CANCELED');
  });

  it('explains a plan that has no Stripe price', async () => {
    const { owner, orgId } = await createOrg(t.app, 'no.price@example.com', 'No Price', {
      trial: null,
    });
    const res = await owner.call('POST', `/api/organizations/${orgId}/subscription/subscribe`, {
      planId: await planId(t.app, 'Pro'),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'The Pro plan cannot be bought online yet. Please contact support.',
    );
  });
});

describe('billing groups through Stripe', () => {
  /** The distinct notices an organization's people were sent. */
  const messagesOf = async (orgId: string, type: string) => [
    ...new Set(
      (
        await t.database.db
          .select({ message: notifications.message })
          .from(notifications)
          .where(and(eq(notifications.organizationId, orgId), sql`${notifications.type} = ${type}`))
      ).map((r) => r.message),
    ),
  ];

  it('covers the subscriber’s other organization once Stripe confirms, pauses it on a failed payment, and ends it with the subscription', async () => {
    const { owner, orgId: hq } = await createOrg(t.app, 'stripe.agency@example.com', 'Stripe HQ', {
      trial: null,
    });
    const res = await owner.call('POST', `/api/organizations/${hq}/subscription/subscribe`, {
      planId: await planId(t.app, 'Basic'),
    });
    // Nothing is covered before the payment: the owner may not even create a second one.
    expect((await owner.call('POST', '/api/organizations', { name: 'Too Early' })).status).toBe(
      403,
    );
    const session = await stripe.completeCheckout(
      (res.body.data.checkoutUrl as string).split('/').pop()!,
    );
    const created = await owner.call('POST', '/api/organizations', { name: 'Stripe Client' });
    expect(created.status).toBe(201);
    const client: string = created.body.data.organization.id;
    const subscriptionOf = async () =>
      (await owner.call('GET', `/api/organizations/${client}/subscription`)).body.data.subscription;
    expect(await subscriptionOf()).toMatchObject({
      status: 'ACTIVE',
      provider: 'stripe',
      plan: { name: 'Basic' },
      coveredBy: { organizationId: hq, organizationName: 'Stripe HQ' },
    });
    // A covered organization starts no Checkout of its own.
    const sessionsBefore = stripe.sessions.size;
    const own = await owner.call('POST', `/api/organizations/${client}/subscription/subscribe`, {
      planId: await planId(t.app, 'Basic'),
    });
    expect(own.status).toBe(409);
    expect(stripe.sessions.size).toBe(sessionsBefore);

    await stripe.failPayment(session.customer as string);
    expect(await messagesOf(client, 'PAYMENT_ISSUE')).toEqual([
      "A payment for Stripe HQ's Basic plan failed: this organization is not covered until it is paid.",
    ]);
    expect(await subscriptionOf()).toBeNull();
    expect(
      (await owner.call('POST', `/api/member/invite/${client}`, { email: 'c1@example.com' }))
        .status,
    ).toBe(403);
    await stripe.payInvoice(session.customer as string);
    expect(await messagesOf(client, 'SUBSCRIPTION_UPDATE')).toContain(
      "Payment received: Stripe HQ's Basic plan covers this organization again.",
    );
    expect(
      (await owner.call('POST', `/api/member/invite/${client}`, { email: 'c2@example.com' }))
        .status,
    ).toBe(201);

    // Cancelling warns the covered organization; the deletion at period end ends its cover.
    expect((await owner.call('POST', `/api/organizations/${hq}/subscription/cancel`)).status).toBe(
      200,
    );
    expect(
      (await messagesOf(client, 'SUBSCRIPTION_UPDATE')).some((m) =>
        m.startsWith("Stripe HQ's Basic plan, which covers this organization, will end on "),
      ),
    ).toBe(true);
    expect((await subscriptionOf()).coveredBy.organizationId).toBe(hq);
    await stripe.endSubscription(session.subscription as string);
    expect(await messagesOf(client, 'SUBSCRIPTION_UPDATE')).toContain(
      "Stripe HQ's Basic plan, which covered this organization, has ended.",
    );
    expect(await subscriptionOf()).toBeNull();
  });

  it('a smaller plan chosen in the portal leaves the newest organizations out, and tells them', async () => {
    const ops = await signIn(t.app, 'ops@example.com');
    for (const [name, price] of [
      ['Pro', 'price_pro_monthly'],
      ['Starter', 'price_starter_monthly'],
    ] as const) {
      const plan = (await ops.call('GET', `/api/plans/${await planId(t.app, name)}`)).body.data
        .plan;
      await ops.call('PUT', `/api/plans/${plan.id}`, { ...plan, stripePriceId: price });
    }
    const { owner, orgId: hq } = await createOrg(t.app, 'stripe.downgrade@example.com', 'Down HQ', {
      trial: null,
    });
    const res = await owner.call('POST', `/api/organizations/${hq}/subscription/subscribe`, {
      planId: await planId(t.app, 'Pro'),
    });
    const session = await stripe.completeCheckout(
      (res.body.data.checkoutUrl as string).split('/').pop()!,
    );
    const client = (await owner.call('POST', '/api/organizations', { name: 'Down Client' })).body
      .data.organization.id as string;
    await stripe.changePrice(session.subscription as string, 'price_starter_monthly');
    expect((await subOf(hq))!.status).toBe('ACTIVE');
    const group = (await owner.call('GET', `/api/organizations/${hq}/billing/group`)).body.data
      .group;
    expect(group).toMatchObject({ plan: { name: 'Starter' }, limit: 1, coveredCount: 1 });
    expect(group.organizations.map((o: { state: string }) => o.state)).toEqual([
      'payer',
      'not_covered',
    ]);
    expect(await messagesOf(client, 'SUBSCRIPTION_UPDATE')).toContain(
      'This organization is no longer covered by Pro (from Down HQ).',
    );
    expect(
      (await owner.call('GET', `/api/organizations/${client}/subscription`)).body.data.subscription,
    ).toBeNull();
  });
});
