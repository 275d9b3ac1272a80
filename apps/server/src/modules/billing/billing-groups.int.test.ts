import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { notifications, subscriptions } from '../../db/schema.js';
import { sweepSubscriptions } from '../../jobs/subscriptions-sweep.job.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, planId, signIn, type Actor } from '../../test/factories.js';

// Billing groups with the self-hosted provider (`none`): plans are granted at once, locally.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'ops@example.com' });
});
afterAll(() => t.close());

/** An owner with a paying organization (subscribed at once to `plan`, or trying it). */
async function agency(
  email: string,
  name: string,
  plan: { subscribe?: string; trial?: string } = { subscribe: 'Basic' },
) {
  const { owner, orgId, roleId } = await createOrg(t.app, email, name, {
    trial: plan.trial ?? null,
  });
  if (plan.subscribe) await subscribe(owner, orgId, plan.subscribe);
  const newOrg = async (orgName: string) => {
    const res = await owner.call('POST', '/api/organizations', { name: orgName });
    expect(res.status).toBe(201);
    return res.body.data.organization.id as string;
  };
  return { owner, hq: orgId, roleId, newOrg };
}

async function subscribe(actor: Actor, orgId: string, plan: string | { id: string }) {
  const res = await actor.call('POST', `/api/organizations/${orgId}/subscription/subscribe`, {
    planId: typeof plan === 'string' ? await planId(t.app, plan) : plan.id,
  });
  expect(res.status).toBe(200);
  return res.body.data.subscription;
}

const subscriptionOf = async (actor: Actor, orgId: string) =>
  (await actor.call('GET', `/api/organizations/${orgId}/subscription`)).body.data.subscription;
const groupOf = async (actor: Actor, orgId: string) => {
  const res = await actor.call('GET', `/api/organizations/${orgId}/billing/group`);
  expect(res.status).toBe(200);
  return res.body.data.group;
};
const invite = (actor: Actor, orgId: string, email: string) =>
  actor.call('POST', `/api/member/invite/${orgId}`, { email });
/** The distinct notices an organization's people were sent. */
const messagesOf = async (orgId: string, type = 'SUBSCRIPTION_UPDATE') => [
  ...new Set(
    (
      await t.database.db
        .select({ message: notifications.message })
        .from(notifications)
        .where(sql`${notifications.organizationId} = ${orgId} and ${notifications.type} = ${type}`)
    ).map((r) => r.message),
  ),
];
const states = (group: { organizations: Array<{ name: string; state: string }> }) =>
  group.organizations.map((o) => `${o.name}: ${o.state}`);

describe('coverage', () => {
  it('covers the subscriber’s organizations up to the plan’s number, in creation order, and refuses one more with the upgrade', async () => {
    const { owner, hq, newOrg } = await agency('cover.owner@example.com', 'Cover HQ');
    const clientA = await newOrg('Client A');

    expect(await subscriptionOf(owner, clientA)).toMatchObject({
      status: 'ACTIVE',
      plan: { name: 'Basic' },
      coveredBy: { organizationId: hq, organizationName: 'Cover HQ' },
    });
    expect((await subscriptionOf(owner, hq)).coveredBy).toBeNull();
    // The covered organization's gates read the payer's plan.
    expect((await invite(owner, clientA, 'a.mate@example.com')).status).toBe(201);
    expect(await messagesOf(clientA)).toContain(
      'This organization is now covered by Basic (from Cover HQ).',
    );

    const refused = await owner.call('POST', '/api/organizations', { name: 'Client B' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'Your Basic plan covers 2 organizations and you own 2. Upgrade to Pro to add more, or transfer one you no longer manage to one of its Admins.',
    );

    await subscribe(owner, hq, 'Pro');
    const clientB = await newOrg('Client B');
    expect((await subscriptionOf(owner, clientB)).plan.name).toBe('Pro');

    const payer = await groupOf(owner, hq);
    expect(payer).toMatchObject({
      role: 'payer',
      plan: { name: 'Pro' },
      limit: 10,
      coveredCount: 3,
      isSubscriber: true,
      pooled: [],
    });
    expect(states(payer)).toEqual(['Cover HQ: payer', 'Client A: covered', 'Client B: covered']);
    expect(await groupOf(owner, clientA)).toEqual({
      role: 'covered',
      plan: { id: await planId(t.app, 'Pro'), name: 'Pro' },
      payer: { id: hq, name: 'Cover HQ' },
      isSubscriber: true,
    });
  });

  it('says when the most generous plan is full', async () => {
    const { owner, newOrg } = await agency('full.owner@example.com', 'Full HQ', {
      subscribe: 'Pro',
    });
    for (let i = 1; i <= 9; i++) await newOrg(`Full client ${i}`);
    const refused = await owner.call('POST', '/api/organizations', { name: 'One too many' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'Your Pro plan covers 10 organizations and you own 10, the most any plan covers. Transfer one you no longer manage to one of its Admins to add another.',
    );
  });

  it('applies limits per organization unless the plan pools them', async () => {
    const ops = await signIn(t.app, 'ops@example.com');
    const plan = async (name: string, pooled?: string[]) => {
      const res = await ops.call('POST', '/api/plans', {
        name,
        description: `${name} plan`,
        price: 10,
        features: {
          invites: 2,
          postsPerDay: 5,
          organizations: 3,
          connectedPlatforms: 2,
          prioritySupport: false,
          ...(pooled ? { pooled } : {}),
        },
      });
      expect(res.status).toBe(201);
      return res.body.data.plan as { id: string; features: { pooled?: string[] } };
    };

    // Per organization: two seats in each.
    const perOrg = await plan('Per Org');
    expect(perOrg.features.pooled).toBeUndefined();
    const own = await agency('perorg.owner@example.com', 'PerOrg HQ', {});
    await subscribe(own.owner, own.hq, perOrg);
    const client = await own.newOrg('PerOrg Client');
    expect((await invite(own.owner, own.hq, 'p1@example.com')).status).toBe(201);
    expect((await invite(own.owner, client, 'p2@example.com')).status).toBe(201);
    const full = await invite(own.owner, client, 'p3@example.com');
    expect(full.status).toBe(403);
    expect(full.body.message).toBe(
      'Your Per Org plan allows 2 team members, pending invitations included. Remove someone or upgrade your plan to invite more.',
    );

    // Pooled: two seats across the group (each organization already has its owner).
    const pooled = await plan('Pooled Seats', ['invites', 'invites']);
    expect(pooled.features.pooled).toEqual(['invites']);
    const shared = await agency('pooled.owner@example.com', 'Pooled HQ', {});
    await subscribe(shared.owner, shared.hq, pooled);
    expect((await groupOf(shared.owner, shared.hq)).pooled).toEqual(['invites']);
    const sharedClient = await shared.newOrg('Pooled Client');
    const refused = await invite(shared.owner, sharedClient, 'q1@example.com');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'Your Pooled Seats plan allows 2 team members across the organizations it covers, pending invitations included. Remove someone or upgrade your plan to invite more.',
    );
    // An edit from the back-office form (which has no pooled field) keeps the pooling.
    const {
      id: _id,
      createdAt: _c,
      ...fields
    } = (await ops.call('GET', `/api/plans/${pooled.id}`)).body.data.plan;
    const { pooled: _p, ...formFeatures } = fields.features;
    const edited = await ops.call('PUT', `/api/plans/${pooled.id}`, {
      ...fields,
      features: { ...formFeatures, invites: 3 },
    });
    expect(edited.body.data.plan.features).toMatchObject({ invites: 3, pooled: ['invites'] });
    expect((await invite(shared.owner, sharedClient, 'q1@example.com')).status).toBe(201);
  });

  it('lets the subscriber choose which organizations are covered when they own more than the plan covers', async () => {
    const { owner, hq, newOrg } = await agency('choose.owner@example.com', 'Choose HQ', {
      subscribe: 'Pro',
    });
    const a = await newOrg('Choose A');
    const b = await newOrg('Choose B');
    const c = await newOrg('Choose C');

    // A smaller plan keeps the oldest; the others are told they are out.
    await subscribe(owner, hq, 'Basic');
    const group = await groupOf(owner, hq);
    expect(group).toMatchObject({ limit: 2, coveredCount: 2 });
    expect(states(group)).toEqual([
      'Choose HQ: payer',
      'Choose A: covered',
      'Choose B: not_covered',
      'Choose C: not_covered',
    ]);
    for (const out of [b, c]) {
      expect(await messagesOf(out)).toContain(
        'This organization is no longer covered by Pro (from Choose HQ).',
      );
      expect(await subscriptionOf(owner, out)).toBeNull();
    }
    expect(await messagesOf(a)).toContain(
      'This organization is now covered by Basic (from Choose HQ).',
    );

    const chosen = await owner.call('PUT', `/api/organizations/${hq}/billing/group`, {
      organizationIds: [c],
    });
    expect(chosen.status).toBe(200);
    expect(states(chosen.body.data.group)).toEqual([
      'Choose HQ: payer',
      'Choose C: covered',
      'Choose A: not_covered',
      'Choose B: not_covered',
    ]);
    expect((await subscriptionOf(owner, c)).coveredBy.organizationId).toBe(hq);
    expect(await subscriptionOf(owner, a)).toBeNull();
    expect(await messagesOf(a)).toContain(
      'This organization is no longer covered by Basic (from Choose HQ): its owner chose to cover other organizations.',
    );

    const tooMany = await owner.call('PUT', `/api/organizations/${hq}/billing/group`, {
      organizationIds: [a, b],
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe(
      'Your Basic plan covers 2 organizations, Choose HQ included: choose at most 1 other.',
    );

    // Back on Pro, every organization is covered again and the choice only orders them.
    await subscribe(owner, hq, 'Pro');
    expect((await groupOf(owner, hq)).coveredCount).toBe(4);
  });
});

describe('isolation', () => {
  it('only the subscriber attaches organizations, and only their own', async () => {
    const { owner, hq, roleId, newOrg } = await agency('iso.owner@example.com', 'Iso HQ', {
      subscribe: 'Pro',
    });
    const client = await newOrg('Iso Client');
    const other = await newOrg('Iso Other Client');
    const { actor: admin } = await addMember(t.app, owner, hq, 'iso.admin@example.com', {
      roleId: roleId('Admin'),
    });
    const stranger = await createOrg(t.app, 'iso.stranger@example.com', 'Stranger Co', {
      trial: null,
    });

    // An Admin of the paying organization who does not own it reads it, but does not choose.
    expect((await groupOf(admin, hq)).isSubscriber).toBe(false);
    const notOwner = await admin.call('PUT', `/api/organizations/${hq}/billing/group`, {
      organizationIds: [client],
    });
    expect(notOwner.status).toBe(403);
    expect(notOwner.body.message).toBe(
      'Only the owner of Iso HQ can choose which organizations its plan covers.',
    );

    // The owner cannot attach someone else's organization (nor learn whether it exists).
    for (const id of [stranger.orgId, '00000000-0000-4000-8000-000000000000']) {
      const foreign = await owner.call('PUT', `/api/organizations/${hq}/billing/group`, {
        organizationIds: [id],
      });
      expect(foreign.status).toBe(400);
      expect(foreign.body.message).toBe(
        'Choose organizations you own that have no plan of their own.',
      );
    }
    expect(await subscriptionOf(stranger.owner, stranger.orgId)).toBeNull();

    // The Admin's own organization is theirs, not the subscriber's: no plan.
    const adminOwn = await admin.call('POST', '/api/organizations', { name: 'Admin Own' });
    expect(adminOwn.status).toBe(201);
    expect(await subscriptionOf(admin, adminOwn.body.data.organization.id)).toBeNull();

    // A covered organization's people see who pays, never the subscriber's other clients.
    const { actor: clientAdmin } = await addMember(
      t.app,
      owner,
      client,
      'iso.client.admin@example.com',
      {
        roleId: (
          (await owner.call('GET', `/api/organizations/${client}/roles`)).body as Array<{
            id: string;
            name: string;
          }>
        ).find((r) => r.name === 'Admin')!.id,
      },
    );
    const seen = await clientAdmin.call('GET', `/api/organizations/${client}/billing/group`);
    expect(seen.body.data.group).toMatchObject({
      role: 'covered',
      payer: { id: hq, name: 'Iso HQ' },
      isSubscriber: false,
    });
    expect(JSON.stringify(seen.body)).not.toContain('Iso Other Client');
    expect(JSON.stringify(seen.body)).not.toContain(other);
    const outsider = await stranger.owner.call('GET', `/api/organizations/${hq}/billing/group`);
    expect(outsider.status).toBe(403);
  });
});

describe('trials and plan changes in a group', () => {
  it('one free trial per owner: a covered organization needs none, and none is left after', async () => {
    const { owner, hq, newOrg } = await agency('trial.group@example.com', 'Trial HQ', {
      trial: 'Pro',
    });
    const client = await newOrg('Trial Client');
    const pro = await planId(t.app, 'Pro');
    const covered = await owner.call('POST', `/api/organizations/${client}/subscribe/trial`, {
      planId: pro,
    });
    expect(covered.status).toBe(409);
    expect(covered.body.message).toBe(
      'This organization is covered by Pro from Trial HQ: it needs no trial.',
    );
    const paying = await owner.call('POST', `/api/organizations/${client}/subscription/subscribe`, {
      planId: pro,
    });
    expect(paying.status).toBe(409);
    expect(paying.body.message).toBe(
      'This organization is covered by Pro from Trial HQ: change plans from the billing of Trial HQ.',
    );
    const cancelling = await owner.call('POST', `/api/organizations/${client}/subscription/cancel`);
    expect(cancelling.status).toBe(409);
    expect(cancelling.body.message).toBe(
      'This organization is covered by Pro from Trial HQ: only Trial HQ can cancel it.',
    );

    // The trial ends for all; the client may not start a trial of its own afterwards.
    expect((await owner.call('POST', `/api/organizations/${hq}/subscription/cancel`)).status).toBe(
      200,
    );
    const again = await owner.call('POST', `/api/organizations/${client}/subscribe/trial`, {
      planId: pro,
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      "This organization's owner has already used their free trial. Subscribe to a plan to continue.",
    );
  });
});

describe('the end of coverage', () => {
  it('a cancelled trial ends coverage for every covered organization at once, with a notice to each', async () => {
    const { owner, hq, newOrg } = await agency('end.trial@example.com', 'End HQ', {
      trial: 'Pro',
    });
    const clients = [await newOrg('End A'), await newOrg('End B')];
    expect((await owner.call('POST', `/api/organizations/${hq}/subscription/cancel`)).status).toBe(
      200,
    );
    for (const client of clients) {
      expect(await subscriptionOf(owner, client)).toBeNull();
      const refused = await invite(owner, client, `late.${client}@example.com`);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(
        'No active subscription found. Please subscribe to a plan.',
      );
      expect(await messagesOf(client)).toContain(
        "End HQ's Pro plan, which covered this organization, has been cancelled.",
      );
    }
    expect(await groupOf(owner, hq)).toBeNull();
  });

  it('a cancelled paid plan warns the covered organizations, keeps them until the period ends, then ends them all', async () => {
    const { owner, hq, newOrg } = await agency('end.paid@example.com', 'Paid HQ', {
      subscribe: 'Pro',
    });
    const client = await newOrg('Paid Client');
    const cancelled = await owner.call('POST', `/api/organizations/${hq}/subscription/cancel`);
    const end = (cancelled.body.data.subscription.currentPeriodEnd as string).slice(0, 10);
    expect(await messagesOf(client)).toContain(
      `Paid HQ's Pro plan, which covers this organization, will end on ${end}; this organization is covered until then.`,
    );
    expect((await invite(owner, client, 'paid.still@example.com')).status).toBe(201);

    await t.database.db
      .update(subscriptions)
      .set({ currentPeriodEnd: sql`now() - interval '1 second'` })
      .where(eq(subscriptions.organizationId, hq));
    // The gate closes at the period's end, before the sweep records it.
    expect(await subscriptionOf(owner, client)).toBeNull();
    await sweepSubscriptions(t.database.db);
    expect(await messagesOf(client)).toContain(
      "Paid HQ's Pro plan, which covered this organization, has ended.",
    );
    expect((await invite(owner, client, 'paid.late@example.com')).status).toBe(403);
  });

  it('an expired trial tells the covered organizations through the sweep', async () => {
    const { owner, hq, newOrg } = await agency('end.expiry@example.com', 'Expiry HQ', {
      trial: 'Basic',
    });
    const client = await newOrg('Expiry Client');
    await t.database.db
      .update(subscriptions)
      .set({ trialEnd: sql`now() - interval '1 second'` })
      .where(eq(subscriptions.organizationId, hq));
    expect(await subscriptionOf(owner, client)).toBeNull();
    await sweepSubscriptions(t.database.db);
    expect(await messagesOf(client)).toContain(
      "Expiry HQ's free trial of Basic, which covered this organization, has ended.",
    );
  });
});

describe('transferring ownership', () => {
  it('ends the coverage of the organization handed over, and of those its plan covered', async () => {
    const { owner, hq, newOrg } = await agency('transfer.owner@example.com', 'Transfer HQ', {
      subscribe: 'Pro',
    });
    const client = await newOrg('Transfer Client');
    const kept = await newOrg('Kept Client');
    const adminRole = async (orgId: string) =>
      (
        (await owner.call('GET', `/api/organizations/${orgId}/roles`)).body as Array<{
          id: string;
          name: string;
        }>
      ).find((r) => r.name === 'Admin')!.id;
    const heir = await addMember(t.app, owner, client, 'transfer.heir@example.com', {
      roleId: await adminRole(client),
    });
    const creator = await addMember(t.app, owner, client, 'transfer.creator@example.com');

    // Only the owner hands over, and only to an Admin.
    const notOwner = await heir.actor.call(
      'POST',
      `/api/organizations/${client}/transfer-ownership`,
      { memberId: heir.memberId },
    );
    expect(notOwner.status).toBe(403);
    expect(notOwner.body.message).toBe(
      'Only the owner of Transfer Client can transfer its ownership.',
    );
    const notAdmin = await owner.call('POST', `/api/organizations/${client}/transfer-ownership`, {
      memberId: creator.memberId,
    });
    expect(notAdmin.status).toBe(400);
    expect(notAdmin.body.message).toBe(
      'Choose an active Admin of this organization as its new owner.',
    );

    const moved = await owner.call('POST', `/api/organizations/${client}/transfer-ownership`, {
      memberId: heir.memberId,
    });
    expect(moved.status).toBe(200);
    expect(await subscriptionOf(owner, client)).toBeNull();
    expect((await invite(heir.actor, client, 'after.transfer@example.com')).status).toBe(403);
    expect(await messagesOf(client)).toContain(
      'This organization is no longer covered by Pro (from Transfer HQ): Transfer Client now belongs to transfer.heir.',
    );
    expect(states(await groupOf(owner, hq))).toEqual([
      'Transfer HQ: payer',
      'Kept Client: covered',
    ]);
    // The new owner can now give it a plan of their own.
    expect(
      (
        await heir.actor.call('POST', `/api/organizations/${client}/subscribe/trial`, {
          planId: await planId(t.app, 'Basic'),
        })
      ).status,
    ).toBe(200);

    // Handing over the paying organization takes its plan along: the rest lose their cover.
    const hqHeir = await addMember(t.app, owner, hq, 'transfer.hq.heir@example.com', {
      roleId: await adminRole(hq),
    });
    expect(
      (
        await owner.call('POST', `/api/organizations/${hq}/transfer-ownership`, {
          memberId: hqHeir.memberId,
        })
      ).status,
    ).toBe(200);
    expect(await subscriptionOf(owner, kept)).toBeNull();
    expect(await messagesOf(kept)).toContain(
      'This organization is no longer covered by Pro (from Transfer HQ): Transfer HQ now belongs to transfer.hq.heir.',
    );
    expect((await subscriptionOf(hqHeir.actor, hq)).status).toBe('ACTIVE');
  });
});
