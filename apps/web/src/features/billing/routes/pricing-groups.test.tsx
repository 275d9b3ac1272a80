import type { BillingGroup, CoverageState, Subscription } from '@herald/contract';
import { PERMISSION_NAMES } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { activeSubscription, billingRoutes, seededPlans } from '@/testing/billing-fixtures';
import { createMe } from '@/testing/factories';
import { ok, type FakeReply, type Handler } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

const PRO = { id: 'plan_pro', name: 'Pro' };
const BASIC = { id: 'plan_basic', name: 'Basic' };
const GROUP = 'GET /organizations/org_1/billing/group';

function coveredSubscription(overrides: Partial<Subscription> = {}) {
  return activeSubscription({
    plan: PRO,
    coveredBy: { organizationId: 'org_hq', organizationName: 'Agency HQ' },
    ...overrides,
  });
}

const org = (id: string, name: string, state: CoverageState) => ({
  id,
  name,
  state,
  createdAt: '2026-01-01T00:00:00.000Z',
});

type PayerGroup = Extract<BillingGroup, { role: 'payer' }>;

function payerGroup(overrides: Partial<PayerGroup> = {}): PayerGroup {
  return {
    role: 'payer' as const,
    plan: PRO,
    limit: 10,
    coveredCount: 3,
    isSubscriber: true,
    pooled: [],
    organizations: [
      org('org_1', 'Agency HQ', 'payer'),
      org('org_a', 'Client A', 'covered'),
      org('org_b', 'Client B', 'covered'),
    ],
    ...overrides,
  };
}

async function renderPricing({
  subscription,
  group = null,
  me = createMe({ organizationName: 'Client A' }),
  routes = {},
}: {
  subscription: Subscription | null;
  group?: BillingGroup | null;
  me?: ReturnType<typeof createMe>;
  routes?: Record<string, Handler | FakeReply>;
}) {
  const server = mockServer({
    me,
    plans: seededPlans(),
    routes: { ...billingRoutes({ subscription, group }), ...routes },
  });
  const app = renderApp('/pricing');
  await screen.findByRole('region', { name: 'Current subscription' });
  return { ...app, server };
}

const banner = () => screen.getByRole('region', { name: 'Current subscription' });
const card = async (name: string) => {
  await screen.findByRole('list', { name: 'Plans' });
  return screen.getByRole('listitem', { name });
};
const buttonsIn = (scope: HTMLElement) =>
  within(scope)
    .queryAllByRole('button')
    .map((b) => b.textContent);

describe('/pricing of a covered organization', () => {
  it('says which plan covers it and from where, read-only for a member who is not the subscriber', async () => {
    const { server } = await renderPricing({
      subscription: coveredSubscription(),
      // A Content Creator: no billing:view, so the group is not even asked for.
      me: createMe({
        organizationName: 'Client A',
        role: { id: 'role_cc', name: 'ContentCreator' },
        permissions: ['post:create', 'post:edit'],
      }),
    });
    expect(banner()).toHaveAttribute('data-tone', 'green');
    expect(banner()).toHaveTextContent('Covered by Pro (from Agency HQ)');
    expect(banner()).toHaveTextContent('Agency HQ pays for this plan. It renews on Apr 1, 2026.');
    expect(buttonsIn(banner())).toEqual([]);
    expect(
      screen.getByText(
        "Agency HQ pays for this plan: only its owner changes it, from Agency HQ's pricing page.",
      ),
    ).toBeInTheDocument();
    const pro = await card('Pro');
    expect(within(pro).getByText('Current Plan')).toBeInTheDocument();
    for (const name of ['Starter', 'Basic', 'Pro']) expect(buttonsIn(await card(name))).toEqual([]);
    expect(server.count(GROUP)).toBe(0);
  });

  it('an Admin who is not the subscriber sees it read-only too', async () => {
    await renderPricing({
      subscription: coveredSubscription(),
      group: {
        role: 'covered',
        plan: PRO,
        payer: { id: 'org_hq', name: 'Agency HQ' },
        isSubscriber: false,
      },
    });
    await waitFor(() =>
      expect(
        screen.getByText(
          "Agency HQ pays for this plan: only its owner changes it, from Agency HQ's pricing page.",
        ),
      ).toBeInTheDocument(),
    );
    expect(buttonsIn(banner())).toEqual([]);
    expect(buttonsIn(await card('Basic'))).toEqual([]);
  });

  it('a covering trial shows its days left', async () => {
    await renderPricing({
      subscription: coveredSubscription({
        status: 'TRIALING',
        trialDaysRemaining: 3,
        currentPeriodEnd: null,
      }),
    });
    expect(banner()).toHaveAttribute('data-tone', 'blue');
    expect(banner()).toHaveTextContent('Covered by Pro (from Agency HQ)');
    expect(banner()).toHaveTextContent("Agency HQ's free trial — 3 days remaining.");
  });

  it('leads the subscriber to the paying organization’s billing', async () => {
    const { user, server } = await renderPricing({
      subscription: coveredSubscription(),
      group: {
        role: 'covered',
        plan: PRO,
        payer: { id: 'org_hq', name: 'Agency HQ' },
        isSubscriber: true,
      },
      routes: {
        'GET /organizations/org_hq/subscription': ok({
          subscription: activeSubscription({ plan: PRO }),
        }),
        'GET /organizations/org_hq/members': {
          status: 200,
          body: {
            status: 'success',
            data: { members: [] },
            meta: { page: 1, pageSize: 1, totalCount: 2 },
          },
        },
        'GET /organizations/org_hq/billing/group': ok({ group: payerGroup() }),
      },
    });
    const open = await within(banner()).findByRole('button', { name: 'Open Agency HQ billing' });
    expect(screen.queryByText(/only its owner changes it/)).not.toBeInTheDocument();
    server.on('POST /member/current-organization', () => {
      server.on(
        'GET /auth/me',
        ok(createMe({ organizationId: 'org_hq', organizationName: 'Agency HQ' })),
      );
      return ok({ organizationId: 'org_hq' });
    });
    await user.click(open);

    const sent = server.requests.find((r) => r.path === '/member/current-organization');
    expect(sent?.body).toEqual({ organizationId: 'org_hq' });
    // The same page now shows the paying organization: its plan, and what it covers.
    expect(await screen.findByText('3 of 10 organizations covered')).toBeInTheDocument();
    await waitFor(() => expect(banner()).toHaveTextContent('You are currently on the Pro plan'));
  });
});

describe('/pricing of the paying organization', () => {
  const me = createMe({ organizationName: 'Agency HQ', permissions: PERMISSION_NAMES });

  it('lists the covered organizations and the count', async () => {
    await renderPricing({
      subscription: activeSubscription({ plan: PRO }),
      group: payerGroup(),
      me,
    });
    const panel = await screen.findByRole('region', { name: 'Organizations covered' });
    expect(panel).toHaveTextContent('3 of 10 organizations covered');
    expect(panel).toHaveTextContent(
      'Your Pro plan covers the organizations you own, oldest first, up to 10. New ones join it on creation. Its limits apply to each organization.',
    );
    const rows = within(
      within(panel).getByRole('list', { name: 'Organizations of the billing group' }),
    ).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Agency HQPays for the plan',
      'Client ACovered',
      'Client BCovered',
    ]);
    expect(buttonsIn(panel)).toEqual([]);
  });

  it('names the limits a plan shares', async () => {
    await renderPricing({
      subscription: activeSubscription({ plan: PRO }),
      group: payerGroup({ pooled: ['invites', 'postsPerDay'] }),
      me,
    });
    const panel = await screen.findByRole('region', { name: 'Organizations covered' });
    expect(panel).toHaveTextContent(
      'Shared by all of them: Invites, Posts Per Day; the other limits apply to each organization.',
    );
  });

  it('lets the subscriber choose which organizations are covered when they own more than the plan covers', async () => {
    const overLimit = payerGroup({
      plan: BASIC,
      limit: 2,
      coveredCount: 2,
      organizations: [
        org('org_1', 'Agency HQ', 'payer'),
        org('org_a', 'Client A', 'covered'),
        org('org_b', 'Client B', 'not_covered'),
      ],
    });
    const { user, server } = await renderPricing({
      subscription: activeSubscription({ plan: BASIC }),
      group: overLimit,
      me,
    });
    const panel = await screen.findByRole('region', { name: 'Organizations covered' });
    expect(panel).toHaveTextContent('2 of 2 organizations covered');
    expect(panel).toHaveTextContent(
      'You own more organizations than your plan covers. Choose the one to cover besides this one, or upgrade to cover more.',
    );
    await user.click(within(panel).getByRole('button', { name: 'Choose covered organizations' }));
    const a = within(panel).getByRole('checkbox', { name: 'Cover Client A' });
    const b = within(panel).getByRole('checkbox', { name: 'Cover Client B' });
    expect(a).toBeChecked();
    // The plan's room is full: another one waits until one is unchecked.
    expect(b).toBeDisabled();
    await user.click(a);
    await user.click(b);

    server.on('PUT /organizations/org_1/billing/group', (request) => {
      expect(request.body).toEqual({ organizationIds: ['org_b'] });
      return ok({
        group: payerGroup({
          ...overLimit,
          organizations: [
            org('org_1', 'Agency HQ', 'payer'),
            org('org_b', 'Client B', 'covered'),
            org('org_a', 'Client A', 'not_covered'),
          ],
        }),
      });
    });
    await user.click(within(panel).getByRole('button', { name: 'Save covered organizations' }));
    expect(await screen.findByText('Covered organizations saved.')).toBeInTheDocument();
    expect(server.count('PUT /organizations/org_1/billing/group')).toBe(1);
  });

  it('shows the same list read-only to a member who is not the subscriber', async () => {
    await renderPricing({
      subscription: activeSubscription({ plan: BASIC }),
      group: payerGroup({
        plan: BASIC,
        limit: 2,
        coveredCount: 2,
        isSubscriber: false,
        organizations: [
          org('org_1', 'Agency HQ', 'payer'),
          org('org_a', 'Client A', 'covered'),
          org('org_b', 'Client B', 'not_covered'),
        ],
      }),
      me,
    });
    const panel = await screen.findByRole('region', { name: 'Organizations covered' });
    expect(panel).toHaveTextContent(
      'The Basic plan covers the organizations owned by the owner of Agency HQ, oldest first, up to 2.',
    );
    expect(panel).toHaveTextContent(
      'Only the owner of Agency HQ chooses which organizations are covered.',
    );
    expect(buttonsIn(panel)).toEqual([]);
  });
});
