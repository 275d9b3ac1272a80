import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  activeSubscription,
  billingRoutes,
  createSubscription,
  seededPlans,
} from '@/testing/billing-fixtures';
import { createMe } from '@/testing/factories';
import { fail, type FakeReply } from '@/testing/fake-server';
import { createTestQueryClient, mockServer, renderApp } from '@/testing/render-app';
import { PricingPage } from './pricing';

type Options = Parameters<typeof billingRoutes>[0] & {
  me?: ReturnType<typeof createMe>;
  routes?: Record<string, FakeReply>;
};

async function renderPricing({ me = createMe(), routes, ...billing }: Options = {}) {
  const server = mockServer({
    me,
    plans: seededPlans(),
    routes: { ...billingRoutes(billing), ...routes },
  });
  const app = renderApp('/pricing');
  await screen.findByRole('heading', { name: 'Simple, transparent pricing' });
  return { ...app, server };
}

const banner = () => screen.findByRole('region', { name: 'Current subscription' });
const card = async (name: string) => {
  await screen.findByRole('list', { name: 'Plans' });
  return screen.getByRole('listitem', { name });
};
const button = (scope: HTMLElement, name: string) => within(scope).queryByRole('button', { name });

describe('/pricing', () => {
  it('promises a free trial without a card, and cancel anytime', async () => {
    await renderPricing();
    expect(screen.getByText(/No credit card required/)).toBeInTheDocument();
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByText('7-day free trial')).toBeInTheDocument();
    expect(within(footer).getByText('Cancel anytime')).toBeInTheDocument();
    expect(
      await screen.findByText(
        'Self-hosted billing: subscribing activates the plan immediately, no payment is taken.',
      ),
    ).toBeInTheDocument();
  });

  it('shows each plan with its monthly price, description and features', async () => {
    await renderPricing();
    const cards = within(await screen.findByRole('list', { name: 'Plans' }));
    expect(cards.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Starter',
      'Basic',
      'Pro',
    ]);
    const pro = await card('Pro');
    expect(within(pro).getByText('$79.50/month')).toBeInTheDocument();
    const features = within(pro).getByRole('list', { name: 'Pro features' });
    expect(within(features).getByText(/Posts Per Day:/)).toHaveTextContent('Posts Per Day: 250');
    expect(within(features).getByText(/Priority Support:/)).toHaveTextContent(
      'Priority Support: Yes',
    );
    const basic = await card('Basic');
    expect(within(basic).getByText('For small teams publishing every day.')).toBeInTheDocument();
    // A feature the plan lacks is crossed out, not ticked.
    const noSupport = within(basic)
      .getByText(/Priority Support:/)
      .closest('li')!;
    expect(noSupport).toHaveTextContent('Priority Support: No (not included)');
    expect(noSupport.querySelector('svg')).toHaveClass('lucide-x');
    const support = within(features)
      .getByText(/Priority Support:/)
      .closest('li')!;
    expect(support).not.toHaveTextContent('not included');
    expect(support.querySelector('svg')).toHaveClass('lucide-check');
    expect(within(basic).getByText('Popular')).toBeInTheDocument();
    expect(within(pro).queryByText('Popular')).not.toBeInTheDocument();
  });

  it('without a subscription: grey banner, every trial and subscribe button available', async () => {
    await renderPricing({ subscription: null });
    const region = await banner();
    expect(region).toHaveAttribute('data-tone', 'grey');
    expect(within(region).getByText('No active subscription.')).toBeInTheDocument();
    expect(button(region, 'Cancel Plan')).not.toBeInTheDocument();
    for (const name of ['Starter', 'Basic', 'Pro']) {
      const plan = await card(name);
      expect(button(plan, 'Start free trial')).toBeEnabled();
      expect(button(plan, 'Subscribe')).toBeEnabled();
      expect(button(plan, 'Cancel Subscription')).not.toBeInTheDocument();
    }
  });

  it('while trialing: blue banner with days remaining, Active Trial badge, only Subscribe on cards', async () => {
    await renderPricing({ subscription: createSubscription({ trialDaysRemaining: 5 }) });
    const region = await banner();
    expect(region).toHaveAttribute('data-tone', 'blue');
    expect(region).toHaveTextContent('Free trial of Basic — 5 days remaining');
    expect(button(region, 'Cancel Plan')).toBeEnabled();

    const basic = await card('Basic');
    expect(within(basic).getByText('Active Trial')).toBeInTheDocument();
    expect(within(basic).queryByText('Current Plan')).not.toBeInTheDocument();
    expect(
      within(basic)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Subscribe']);
    const pro = await card('Pro');
    expect(within(pro).queryByText('Active Trial')).not.toBeInTheDocument();
    expect(
      within(pro)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Subscribe']);
    // Cancelling is the banner's alone.
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
  });

  it('says "1 day remaining" on the last day', async () => {
    await renderPricing({ subscription: createSubscription({ trialDaysRemaining: 1 }) });
    expect(await banner()).toHaveTextContent('Free trial of Basic — 1 day remaining');
  });

  it('while active: green banner naming the plan, Current Plan badge, no subscribe on it', async () => {
    await renderPricing({ subscription: activeSubscription() });
    const region = await banner();
    expect(region).toHaveAttribute('data-tone', 'green');
    expect(region).toHaveTextContent('You are currently on the Basic plan');
    expect(region).toHaveTextContent('Renews on Apr 1, 2026');

    const basic = await card('Basic');
    expect(within(basic).getByText('Current Plan')).toBeInTheDocument();
    expect(within(basic).queryAllByRole('button')).toHaveLength(0);
    expect(button(region, 'Cancel Plan')).toBeEnabled();
    const starter = await card('Starter');
    expect(
      within(starter)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Subscribe']);
  });

  it('a paid plan cancelled at period end says when it ends and offers to subscribe again', async () => {
    await renderPricing({
      subscription: activeSubscription({
        cancelAtPeriodEnd: true,
        canceledAt: '2026-03-10T00:00:00Z',
      }),
    });
    const region = await banner();
    expect(region).toHaveAttribute('data-tone', 'green');
    expect(region).toHaveTextContent('Ends on Apr 1, 2026');
    expect(button(region, 'Cancel Plan')).not.toBeInTheDocument();
    const basic = await card('Basic');
    expect(within(basic).getByText('Ends on Apr 1, 2026')).toBeInTheDocument();
    expect(button(basic, 'Subscribe')).toBeEnabled();
    expect(button(basic, 'Cancel Subscription')).not.toBeInTheDocument();
  });

  it('after a cancelled trial: grey with the status, trial gone, subscribe offered', async () => {
    await renderPricing({
      subscription: createSubscription({
        status: 'CANCELED',
        trialDaysRemaining: null,
        canceledAt: '2026-03-02T10:00:00.000Z',
      }),
    });
    const region = await banner();
    expect(region).toHaveAttribute('data-tone', 'grey');
    expect(region).toHaveTextContent('No active subscription. (CANCELED)');
    expect(button(region, 'Cancel Plan')).not.toBeInTheDocument();
    for (const name of ['Starter', 'Basic', 'Pro']) {
      const plan = await card(name);
      expect(button(plan, 'Start free trial')).not.toBeInTheDocument();
      expect(button(plan, 'Subscribe')).toBeEnabled();
      expect(within(plan).queryByText('Active Trial')).not.toBeInTheDocument();
    }
  });

  it('shows other statuses in brackets, and a past-due plan can still be cancelled', async () => {
    await renderPricing({ subscription: activeSubscription({ status: 'PAST_DUE' }) });
    const region = await banner();
    expect(region).toHaveAttribute('data-tone', 'grey');
    expect(region).toHaveTextContent('No active subscription. (PAST_DUE)');
    expect(button(region, 'Cancel Plan')).toBeEnabled();
    expect(within(await card('Basic')).queryByText('Current Plan')).not.toBeInTheDocument();
  });

  it('hides the trial on plans that do not offer one', async () => {
    const plans = seededPlans().map((p) => (p.name === 'Pro' ? { ...p, trialEligible: false } : p));
    await renderPricing({
      routes: { 'GET /plans': { status: 200, body: { status: 'success', data: { plans } } } },
    });
    expect(button(await card('Pro'), 'Start free trial')).not.toBeInTheDocument();
    expect(button(await card('Pro'), 'Subscribe')).toBeEnabled();
    expect(button(await card('Basic'), 'Start free trial')).toBeEnabled();
  });

  it('reads "Just you (1 team member)" for an organization of one, and counts larger teams', async () => {
    const first = await renderPricing({ memberCount: 1 });
    expect(within(await banner()).getByText('Just you (1 team member)')).toBeInTheDocument();
    first.unmount();

    await renderPricing({ memberCount: 3 });
    const region = await banner();
    expect(await within(region).findByText('3 team members')).toBeInTheDocument();
    expect(within(region).queryByText('Just you (1 team member)')).not.toBeInTheDocument();
  });

  it('lets a member without subscription rights read the page but not change the plan', async () => {
    const me = createMe({
      role: { id: 'role_cc', name: 'ContentCreator' },
      permissions: ['post:create'],
    });
    await renderPricing({ me, subscription: createSubscription() });
    const region = await banner();
    expect(region).toHaveTextContent('Free trial of Basic — 7 days remaining');
    expect(button(region, 'Cancel Plan')).not.toBeInTheDocument();
    const basic = await card('Basic');
    expect(within(basic).getByText('Active Trial')).toBeInTheDocument();
    expect(within(basic).queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByText(/Ask an organization admin/)).toBeInTheDocument();
  });

  it('says when the plans cannot be loaded, or when there are none', async () => {
    const first = await renderPricing({ routes: { 'GET /plans': fail(500, 'INTERNAL', 'Down.') } });
    expect(
      await screen.findByText('Failed to load pricing information. Please refresh to try again.'),
    ).toBeInTheDocument();
    first.unmount();

    await renderPricing({
      routes: { 'GET /plans': { status: 200, body: { status: 'success', data: { plans: [] } } } },
    });
    expect(
      await screen.findByText('No pricing plans available at the moment.'),
    ).toBeInTheDocument();
  });

  it('says when the subscription cannot be loaded, and retries on request', async () => {
    const { server, user } = await renderPricing({
      routes: { 'GET /organizations/org_1/subscription': fail(500, 'INTERNAL', 'Down.') },
    });
    expect(await screen.findByText('Could not refresh subscription status.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Current subscription' })).not.toBeInTheDocument();
    expect(button(await card('Basic'), 'Start free trial')).toBeDisabled();

    server.on(
      'GET /organizations/org_1/subscription',
      billingRoutes()['GET /organizations/org_1/subscription']!,
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await banner()).toHaveTextContent('No active subscription.');
    expect(screen.queryByText('Could not refresh subscription status.')).not.toBeInTheDocument();
  });

  it('asks to select an organization when there is none', async () => {
    mockServer({ me: createMe({ organizationId: null }), plans: seededPlans() });
    const router = createMemoryRouter([{ path: '/pricing', element: <PricingPage /> }], {
      initialEntries: ['/pricing'],
    });
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(
      await screen.findByText('Please select an organization to view pricing plans.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Plans' })).not.toBeInTheDocument();
  });
});
