import type { Subscription } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { goToExternal } from '@/lib/browser';
import {
  activeSubscription,
  billingRoutes,
  createSubscription,
  seededPlans,
} from '@/testing/billing-fixtures';
import { FakeEventSource } from '@/testing/fake-event-source';
import { createMe } from '@/testing/factories';
import { createNotification } from '@/testing/notification-fixtures';
import { fail, ok, type FakeReply, type Handler } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

vi.mock('@/lib/browser', () => ({ goToExternal: vi.fn() }));

beforeEach(() => {
  vi.mocked(goToExternal).mockClear();
});

const SUBSCRIPTION = 'GET /organizations/org_1/subscription';
/** A success envelope the contract rejects: the screen must fall back to its own sentence. */
const garbled: FakeReply = ok({ unexpected: true });

async function renderPricing({
  subscription = null,
  provider = 'none',
  me = createMe(),
  routes = {},
  path = '/pricing',
}: {
  subscription?: Subscription | null;
  provider?: 'none' | 'stripe';
  me?: ReturnType<typeof createMe>;
  routes?: Record<string, Handler | FakeReply>;
  path?: string;
} = {}) {
  const server = mockServer({
    me,
    plans: seededPlans(),
    routes: { ...billingRoutes({ subscription, provider }), ...routes },
  });
  const app = renderApp(path);
  await screen.findByRole('region', { name: 'Current subscription' });
  return { ...app, server };
}

const card = async (name: string) => {
  await screen.findByRole('list', { name: 'Plans' });
  return screen.getByRole('listitem', { name });
};
const banner = () => screen.getByRole('region', { name: 'Current subscription' });

describe('/pricing actions', () => {
  it('starts a free trial, says so, and refetches the subscription and the session', async () => {
    const { user, server } = await renderPricing();
    const trial = createSubscription();
    server.on('POST /organizations/org_1/subscribe/trial', () => {
      server.on(SUBSCRIPTION, ok({ subscription: trial }));
      return ok({ subscription: trial });
    });
    const meCalls = server.count('GET /auth/me');

    await user.click(within(await card('Basic')).getByRole('button', { name: 'Start free trial' }));
    // It asks first; "Not now" leaves everything as it was.
    let dialog = await screen.findByRole('dialog', { name: 'Start a free trial of Basic?' });
    expect(dialog).toHaveTextContent('free for 7 days');
    await user.click(within(dialog).getByRole('button', { name: 'Not now' }));
    expect(server.count('POST /organizations/org_1/subscribe/trial')).toBe(0);

    await user.click(within(await card('Basic')).getByRole('button', { name: 'Start free trial' }));
    dialog = await screen.findByRole('dialog', { name: 'Start a free trial of Basic?' });
    await user.click(within(dialog).getByRole('button', { name: 'Start free trial' }));

    expect(await screen.findByText('Free trial started successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const sent = server.requests.find((r) => r.path === '/organizations/org_1/subscribe/trial');
    expect(sent?.body).toEqual({ planId: 'plan_basic' });
    await waitFor(() => expect(banner()).toHaveAttribute('data-tone', 'blue'));
    expect(banner()).toHaveTextContent('Free trial of Basic — 7 days remaining');
    expect(within(await card('Basic')).getByText('Active Trial')).toBeInTheDocument();
    expect(server.count('GET /auth/me')).toBeGreaterThan(meCalls);
  });

  it('shows one toast per action: the notification the trial makes is listed, not toasted again', async () => {
    const { user, server } = await renderPricing();
    const trial = createSubscription();
    server.on('POST /organizations/org_1/subscribe/trial', () => {
      server.on(SUBSCRIPTION, ok({ subscription: trial }));
      return ok({ subscription: trial });
    });
    const stream = FakeEventSource.latest();
    stream.open();

    await user.click(within(await card('Basic')).getByRole('button', { name: 'Start free trial' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start a free trial of Basic?' });
    await user.click(within(dialog).getByRole('button', { name: 'Start free trial' }));
    expect(await screen.findByText('Free trial started successfully!')).toBeInTheDocument();

    stream.emit(
      'notification',
      createNotification({
        id: 'ntf_trial',
        message: 'Your 7-day free trial of Basic has started.',
        createdAt: new Date().toISOString(),
      }),
    );
    // It still counts as unread in the sidebar…
    expect(
      await within(screen.getByRole('navigation', { name: 'Main' })).findByRole('link', {
        name: 'Notifications 1 unread',
      }),
    ).toBeInTheDocument();
    // …but only the page's own toast is shown.
    expect(screen.queryByText('Your 7-day free trial of Basic has started.')).toBeNull();
    expect(screen.getAllByText('Free trial started successfully!')).toHaveLength(1);

    // Notifications that are not the page's own action are toasted as usual.
    stream.emit(
      'notification',
      createNotification({
        id: 'ntf_other',
        message: 'A teammate joined.',
        createdAt: new Date().toISOString(),
      }),
    );
    expect(await screen.findByText('A teammate joined.')).toBeInTheDocument();
  });

  it("shows the server's reason when the trial is refused, else the fallback", async () => {
    const { user, server } = await renderPricing();
    server.on(
      'POST /organizations/org_1/subscribe/trial',
      fail(409, 'CONFLICT', 'This organization has already used its free trial.'),
    );
    const startTrial = async () => {
      await user.click(within(await card('Pro')).getByRole('button', { name: 'Start free trial' }));
      const dialog = await screen.findByRole('dialog', { name: 'Start a free trial of Pro?' });
      await user.click(within(dialog).getByRole('button', { name: 'Start free trial' }));
    };
    await startTrial();
    expect(
      await screen.findByText('This organization has already used its free trial.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    server.on('POST /organizations/org_1/subscribe/trial', garbled);
    await startTrial();
    expect(await screen.findByText('Failed to start trial')).toBeInTheDocument();
  });

  it('without a payment provider, subscribing activates the plan at once', async () => {
    const { user, server } = await renderPricing();
    const active = activeSubscription({ plan: { id: 'plan_pro', name: 'Pro' } });
    server.on('POST /organizations/org_1/subscription/subscribe', () => {
      server.on(SUBSCRIPTION, ok({ subscription: active }));
      return ok({ subscription: active, checkoutUrl: null });
    });

    await user.click(within(await card('Pro')).getByRole('button', { name: 'Subscribe' }));

    expect(await screen.findByText('Subscription initiated!')).toBeInTheDocument();
    await waitFor(() => expect(banner()).toHaveAttribute('data-tone', 'green'));
    expect(banner()).toHaveTextContent('You are currently on the Pro plan');
    expect(within(await card('Pro')).getByText('Current Plan')).toBeInTheDocument();
    expect(goToExternal).not.toHaveBeenCalled();
  });

  it('with Stripe, subscribing sends the browser to Checkout', async () => {
    const { user, server } = await renderPricing({ provider: 'stripe' });
    expect(screen.queryByText(/Self-hosted billing/)).not.toBeInTheDocument();
    server.on(
      'POST /organizations/org_1/subscription/subscribe',
      ok({ subscription: null, checkoutUrl: 'https://checkout.stripe.test/c/pay_1' }),
    );

    const basic = await card('Basic');
    await user.click(within(basic).getByRole('button', { name: 'Subscribe' }));

    await waitFor(() =>
      expect(goToExternal).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay_1'),
    );
    expect(within(basic).getByRole('button', { name: 'Subscribe' })).toBeDisabled();
    expect(screen.queryByText('Subscription initiated!')).not.toBeInTheDocument();
  });

  it('a failed subscription says why, else "Payment failed"', async () => {
    const { user, server } = await renderPricing({ provider: 'stripe' });
    server.on(
      'POST /organizations/org_1/subscription/subscribe',
      fail(503, 'UNAVAILABLE', 'The payment provider could not be reached.'),
    );
    await user.click(within(await card('Basic')).getByRole('button', { name: 'Subscribe' }));
    expect(
      await screen.findByText('The payment provider could not be reached.'),
    ).toBeInTheDocument();

    server.on('POST /organizations/org_1/subscription/subscribe', garbled);
    await user.click(within(await card('Basic')).getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Payment failed')).toBeInTheDocument();
  });

  it('back from Checkout: a toast, a fresh subscription, and a clean address', async () => {
    const { router, server } = await renderPricing({
      provider: 'stripe',
      path: '/pricing?checkout=success',
    });
    expect(await screen.findByText('Subscription initiated!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(server.count(SUBSCRIPTION)).toBeGreaterThanOrEqual(1);
    await waitFor(() => expect(server.count('GET /auth/me')).toBeGreaterThanOrEqual(2));
  });

  it('back from a cancelled Checkout: says no payment was taken', async () => {
    const { router } = await renderPricing({ path: '/pricing?checkout=cancelled' });
    expect(
      await screen.findByText('Checkout cancelled. No payment was taken.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('asks before cancelling a trial, then cancels it', async () => {
    const trial = createSubscription();
    const { user, server } = await renderPricing({ subscription: trial });
    const cancelled: Subscription = { ...trial, status: 'CANCELED', trialDaysRemaining: null };
    server.on('POST /organizations/org_1/subscription/cancel', () => {
      server.on(SUBSCRIPTION, ok({ subscription: cancelled }));
      return ok({ subscription: cancelled });
    });

    await user.click(within(banner()).getByRole('button', { name: 'Cancel Plan' }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancel subscription?' });
    expect(dialog).toHaveTextContent('Your free trial of Basic ends now');
    await user.click(within(dialog).getByRole('button', { name: 'Keep plan' }));
    expect(server.count('POST /organizations/org_1/subscription/cancel')).toBe(0);

    await user.click(within(banner()).getByRole('button', { name: 'Cancel Plan' }));
    dialog = await screen.findByRole('dialog', { name: 'Cancel subscription?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));

    expect(await screen.findByText('Subscription cancelled')).toBeInTheDocument();
    await waitFor(() => expect(banner()).toHaveTextContent('No active subscription. (CANCELED)'));
    expect(banner()).toHaveAttribute('data-tone', 'grey');
    const basic = await card('Basic');
    expect(within(basic).queryByRole('button', { name: 'Start free trial' })).toBeNull();
    expect(within(basic).getByRole('button', { name: 'Subscribe' })).toBeEnabled();
  });

  it('a paid plan cancelled at period end stays active and says when it ends', async () => {
    const active = activeSubscription();
    const { user, server } = await renderPricing({ subscription: active });
    const ending = { ...active, cancelAtPeriodEnd: true, canceledAt: '2026-03-10T00:00:00Z' };
    server.on('POST /organizations/org_1/subscription/cancel', () => {
      server.on(SUBSCRIPTION, ok({ subscription: ending }));
      return ok({ subscription: ending });
    });

    await user.click(within(banner()).getByRole('button', { name: 'Cancel Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription?' });
    expect(dialog).toHaveTextContent('stays active until Apr 1, 2026');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));

    expect(await screen.findByText('Subscription cancelled')).toBeInTheDocument();
    await waitFor(() => expect(banner()).toHaveTextContent('Ends on Apr 1, 2026'));
    expect(banner()).toHaveTextContent('You are currently on the Basic plan');
    expect(within(banner()).queryByRole('button', { name: 'Cancel Plan' })).toBeNull();
  });

  it('a failed cancellation says why, else the fallback', async () => {
    const { user, server } = await renderPricing({ subscription: createSubscription() });
    server.on('POST /organizations/org_1/subscription/cancel', garbled);
    await user.click(within(banner()).getByRole('button', { name: 'Cancel Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    expect(await screen.findByText('Failed to cancel subscription')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('opens the Stripe billing portal for a paying organization', async () => {
    const { user, server } = await renderPricing({
      provider: 'stripe',
      subscription: activeSubscription({ provider: 'stripe' }),
    });
    server.on(
      'POST /organizations/org_1/billing/portal',
      ok({ url: 'https://billing.stripe.test/p/1' }),
    );
    await user.click(within(banner()).getByRole('button', { name: 'Manage billing' }));
    await waitFor(() =>
      expect(goToExternal).toHaveBeenCalledWith('https://billing.stripe.test/p/1'),
    );
  });

  it('offers the portal only to members with billing:edit, and only with Stripe', async () => {
    const me = createMe({ permissions: ['subscription:manage', 'billing:view'] });
    const first = await renderPricing({
      me,
      provider: 'stripe',
      subscription: activeSubscription({ provider: 'stripe' }),
    });
    expect(within(banner()).getByRole('button', { name: 'Cancel Plan' })).toBeInTheDocument();
    expect(within(banner()).queryByRole('button', { name: 'Manage billing' })).toBeNull();
    first.unmount();

    await renderPricing({ subscription: activeSubscription() });
    expect(within(banner()).queryByRole('button', { name: 'Manage billing' })).toBeNull();
  });
});
