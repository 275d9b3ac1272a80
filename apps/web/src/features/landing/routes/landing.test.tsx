import { PLATFORM_NAMES } from '@herald/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe, createPlan } from '@/testing/factories';
import { deferred, fail, ok } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

const plans = [
  createPlan({
    name: 'Pro',
    price: 49.5,
    features: {
      invites: 25,
      postsPerDay: 100,
      organizations: 5,
      connectedPlatforms: 5,
      prioritySupport: true,
    },
  }),
  createPlan({ name: 'Free', price: 0 }),
  createPlan({ name: 'Basic', price: 19 }),
];

async function findPlanCard(name: string) {
  const heading = await screen.findByRole('heading', { name, level: 3 });
  return heading.closest('li') as HTMLElement;
}

describe('landing page', () => {
  it('invites visitors to sign in or get started', async () => {
    mockServer({ me: null });
    renderApp('/');

    expect(await screen.findByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/signup');
    const sections = screen.getByRole('navigation', { name: 'Sections' });
    expect(within(sections).getByRole('link', { name: 'Features' })).toHaveAttribute(
      'href',
      '#features',
    );
    expect(within(sections).getByRole('link', { name: 'Pricing' })).toHaveAttribute(
      'href',
      '#pricing',
    );
    expect(within(sections).getByRole('link', { name: 'Reviews' })).toHaveAttribute(
      'href',
      '#reviews',
    );
  });

  it('sends signed-in members to the dashboard and others to onboarding', async () => {
    mockServer({ me: createMe({ organizationId: 'org_1' }) });
    const first = renderApp('/');
    expect(await screen.findByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(screen.queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
    // A member already has an account: the trial buttons lead to the plans.
    for (const link of screen.getAllByRole('link', { name: /Start Free Trial/ })) {
      expect(link).toHaveAttribute('href', '/pricing');
    }
    first.unmount();
    window.localStorage.clear();

    mockServer({ me: createMe({ organizationId: null }) });
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Finish Setup' })).toHaveAttribute(
      'href',
      '/onboarding',
    );
  });

  it('presents the hero, six features, three reviews, the promise and the legal links', async () => {
    mockServer({ me: null });
    renderApp('/');

    // Pricing needs a session: a visitor's trial starts at sign-up, not at Sign in.
    const trialLinks = await screen.findAllByRole('link', { name: /Start Free Trial/ });
    expect(trialLinks.length).toBeGreaterThan(1);
    for (const link of trialLinks) expect(link).toHaveAttribute('href', '/signup');
    const features = screen.getByRole('region', { name: 'Everything your social team needs' });
    const featureTitles = within(features)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(featureTitles).toEqual([
      'Smart Scheduling',
      'Advanced Analytics',
      'Unified Inbox',
      'Team Collaboration',
      'Auto-Posting',
      'Secure & Reliable',
    ]);
    // Every feature shown is one the app has (the inbox and analytics were marked "Coming soon"
    // while they were being built).
    expect(within(features).queryAllByText(/coming soon/i)).toEqual([]);
    // Every network Herald connects is named, the newest too.
    const pitch = screen.getByText(/into one calm workspace/).textContent ?? '';
    expect(pitch).toContain('X, Instagram, Facebook, Threads, TikTok, LinkedIn');
    for (const name of PLATFORM_NAMES) expect(pitch).toContain(name);
    const reviews = screen.getByRole('region', { name: 'Teams that publish with Herald' });
    expect(within(reviews).getAllByRole('figure')).toHaveLength(3);
    expect(screen.getAllByText(/No credit card required/).length).toBeGreaterThan(0);

    const legal = screen.getByRole('navigation', { name: 'Legal' });
    expect(within(legal).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    expect(within(legal).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/terms-of-service',
    );
    expect(within(legal).getByRole('link', { name: 'Cookie Policy' })).toHaveAttribute(
      'href',
      '/cookie-policy',
    );
  });

  it('turns the navigation solid after 50px of scroll', async () => {
    mockServer({ me: null });
    renderApp('/');
    const banner = await screen.findByRole('banner');
    expect(banner).toHaveAttribute('data-solid', 'false');

    Object.defineProperty(window, 'scrollY', { value: 50, configurable: true });
    fireEvent.scroll(window);
    expect(banner).toHaveAttribute('data-solid', 'false');

    Object.defineProperty(window, 'scrollY', { value: 51, configurable: true });
    fireEvent.scroll(window);
    await waitFor(() => expect(banner).toHaveAttribute('data-solid', 'true'));
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
  });
});

describe('landing pricing section', () => {
  it('lists the plans cheapest first, with Basic as Most Popular', async () => {
    mockServer({ plans });
    renderApp('/');

    const list = await screen.findByRole('list', { name: 'Pricing plans' });
    expect(
      within(list)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Free', 'Basic', 'Pro']);

    const basic = await findPlanCard('Basic');
    expect(within(basic).getByText('Most Popular')).toBeInTheDocument();
    expect(within(basic).getByText('$19.00/month')).toBeInTheDocument();
    expect(within(basic).getByRole('link', { name: 'Get Basic Now' })).toHaveAttribute(
      'href',
      '/signup',
    );

    const pro = await findPlanCard('Pro');
    expect(within(pro).queryByText('Most Popular')).not.toBeInTheDocument();
    expect(within(pro).getByText('$49.50/month')).toBeInTheDocument();
    expect(within(pro).getByRole('link', { name: 'Start Free Trial' })).toHaveAttribute(
      'href',
      '/signup',
    );
    expect(within(pro).getByText(/Posts Per Day:/)).toHaveTextContent('Posts Per Day: 100');
    expect(within(pro).getByText(/Priority Support:/)).toHaveTextContent('Priority Support: Yes');
    expect(within(pro).getByText(/Connected Platforms:/)).toHaveTextContent(
      'Connected Platforms: 5',
    );

    const free = await findPlanCard('Free');
    expect(within(free).getByText('$0.00/month')).toBeInTheDocument();
    expect(within(free).getByText(/Priority Support:/)).toHaveTextContent('Priority Support: No');
  });

  it('shows a skeleton while the plans load', async () => {
    const gate = deferred();
    mockServer({
      routes: {
        'GET /plans': async () => {
          await gate.promise;
          return ok({ plans });
        },
      },
    });
    renderApp('/');

    expect(
      await screen.findByRole('status', { name: 'Loading pricing plans' }),
    ).toBeInTheDocument();
    gate.resolve();
    expect(await screen.findByRole('list', { name: 'Pricing plans' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading pricing plans' })).not.toBeInTheDocument();
  });

  it('says plans are unavailable when the call fails', async () => {
    mockServer({ routes: { 'GET /plans': fail(503, 'UNAVAILABLE', 'Database down.') } });
    renderApp('/');

    expect(
      await screen.findByText('Pricing plans are currently unavailable. Please try again later.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Pricing plans' })).not.toBeInTheDocument();
  });

  it('says so when there are no plans', async () => {
    mockServer({ plans: [createPlan({ name: 'Retired', status: 'INACTIVE' })] });
    renderApp('/');

    expect(
      await screen.findByText('No pricing plans available at the moment.'),
    ).toBeInTheDocument();
  });
});
