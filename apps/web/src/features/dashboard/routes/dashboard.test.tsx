import { render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { activeSubscription, createSubscription, seededPlans } from '@/testing/billing-fixtures';
import { createMe } from '@/testing/factories';
import { fail, ok, type FakeReply, type Handler } from '@/testing/fake-server';
import { createDashboard, dashboardRoute } from '@/testing/notification-fixtures';
import { createIntegration } from '@/testing/platform-fixtures';
import { AppProvider } from '@/app/provider';
import { createTestQueryClient, mockServer, renderApp } from '@/testing/render-app';
import type { Dashboard } from '../api/dashboard';
import { DashboardPage } from './dashboard';

const ago = (days: number) => new Date(Date.now() - days * 24 * 3_600_000).toISOString();
const post = (id: string, days: number, status: string, content: string) => ({
  id,
  content,
  status,
  createdAt: ago(days),
  scheduledAt: null,
  publishedAt: null,
});

async function renderDashboard({
  dashboard = createDashboard(),
  routes = {},
  path = '/dashboard',
  me = createMe(),
}: {
  dashboard?: Dashboard;
  routes?: Record<string, Handler | FakeReply>;
  path?: string;
  me?: ReturnType<typeof createMe>;
} = {}) {
  const server = mockServer({
    me,
    routes: { ...dashboardRoute(dashboard), ...routes },
  });
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Acme Studio Dashboard', level: 1 });
  return { ...app, server };
}

/** The value under a stat card's label. */
const stat = (label: string) =>
  within(screen.getByRole('region', { name: 'Statistics' })).getByText(label, { exact: true })
    .nextElementSibling;

const banner = () => screen.getByRole('region', { name: 'Your plan' });

describe('/dashboard', () => {
  it('shows the real figures, and "No data yet" where there is no source', async () => {
    await renderDashboard({
      dashboard: createDashboard({ postCounts: { total: 12, upcoming: 3 }, memberCount: 4 }),
    });

    expect(await screen.findByRole('region', { name: 'Statistics' })).toBeInTheDocument();
    expect(stat('Total Posts')).toHaveTextContent('12');
    expect(stat('Upcoming Scheduled')).toHaveTextContent('3');
    expect(await screen.findByText('Unread Messages')).toBeInTheDocument();
    await waitFor(() => expect(stat('Unread Messages')).toHaveTextContent('0'));
    expect(stat('Engagement Rate')).toHaveTextContent('No data yet');
    expect(screen.queryByText(/85%/)).toBeNull();
    expect(screen.queryByText(/\+12% from last month/)).toBeNull();
    expect(screen.getByText('4 members')).toBeInTheDocument();
  });

  it("shows the inbox's unread count, and no such card to a member who cannot read the inbox", async () => {
    const { unmount } = await renderDashboard({
      routes: {
        'GET /organizations/org_1/inbox/summary': ok({ unreadCount: 7, accounts: [], labels: [] }),
      },
    });
    await waitFor(() => expect(stat('Unread Messages')).toHaveTextContent('7'));
    unmount();

    const { server } = await renderDashboard({ me: createMe({ permissions: ['post:create'] }) });
    expect(await screen.findByText('Total Posts')).toBeInTheDocument();
    expect(screen.queryByText('Unread Messages')).toBeNull();
    expect(server.count('GET /organizations/org_1/inbox/summary')).toBe(0);
    // No shortcut into a page that would only say the inbox is not shared with this role.
    const quick = screen.getByRole('region', { name: 'Quick Actions' });
    expect(within(quick).queryByRole('link', { name: /Open the inbox/ })).toBeNull();
  });

  it('shows the engagement rate of the last 30 days with its trend, formula and analytics link', async () => {
    await renderDashboard({
      dashboard: createDashboard({
        engagement: {
          value: 0.04,
          previous: 0.05,
          change: -0.2,
          from: '2026-02-01',
          to: '2026-03-02',
          formula: 'interactions ÷ views (or reach)',
        },
      }),
    });
    await screen.findByRole('region', { name: 'Statistics' });
    expect(stat('Engagement Rate')).toHaveTextContent('4.00%');
    const card = stat('Engagement Rate')!.parentElement!;
    expect(card).toHaveTextContent('−20.0% vs the previous 30 days');
    expect(card).toHaveTextContent('Rate = interactions ÷ views (or reach)');
    expect(within(card).getByRole('link', { name: 'Open analytics' })).toHaveAttribute(
      'href',
      '/analytics?range=30',
    );
    expect(card).not.toHaveTextContent('No data yet');
  });

  it('says the engagement rate is not shared with a role without analytics', async () => {
    await renderDashboard({ dashboard: createDashboard({ engagement: null }) });
    await screen.findByRole('region', { name: 'Statistics' });
    expect(stat('Engagement Rate')).toHaveTextContent('Not shared with your role');
    expect(screen.queryByRole('link', { name: 'Open analytics' })).toBeNull();
  });

  it('links Create Post and the quick actions', async () => {
    await renderDashboard();
    await screen.findByRole('region', { name: 'Statistics' });

    expect(screen.getByRole('link', { name: 'Create Post' })).toHaveAttribute(
      'href',
      '/create-post',
    );
    const quick = screen.getByRole('region', { name: 'Quick Actions' });
    const hrefs = within(quick)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/create-post', '/inbox', '/team', '/settings']);
  });

  it('lists connected accounts with name and picture, and Manage leads to integrations', async () => {
    await renderDashboard({
      dashboard: createDashboard({
        integrations: [
          createIntegration({
            metadata: { name: 'Ada Posts', username: 'ada_posts', pictureUrl: 'https://p/x.png' },
          }),
          createIntegration({
            platform: { id: 'plt_threads', name: 'Threads' },
            status: 'REFRESH_FAILED',
            metadata: { name: 'Ada Threads', username: null },
          }),
        ],
      }),
    });

    const card = await screen.findByRole('region', { name: 'Connected Platforms' });
    expect(within(card).getByText('1 connected · 6 supported')).toBeInTheDocument();
    const ada = within(card).getByRole('listitem', { name: 'Ada Posts' });
    expect(within(ada).getByText('X · @ada_posts')).toBeInTheDocument();
    expect(ada.querySelector('img')).toHaveAttribute('src', 'https://p/x.png');
    const threads = within(card).getByRole('listitem', { name: 'Ada Threads' });
    expect(within(threads).getByText('Reconnect needed')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Manage' })).toHaveAttribute(
      'href',
      '/org/org_1/settings/integrations',
    );
  });

  it('says when nothing is connected and nothing happened yet', async () => {
    await renderDashboard();
    const card = await screen.findByRole('region', { name: 'Connected Platforms' });
    expect(within(card).getByText('No platforms connected yet.')).toBeInTheDocument();
    expect(within(card).getByText('0 connected · 6 supported')).toBeInTheDocument();
    const activity = screen.getByRole('region', { name: 'Recent Activity' });
    expect(within(activity).getByText('No recent activity yet.')).toBeInTheDocument();
  });

  it('lists the 4 newest of the 2 latest posts and 2 latest accounts, with relative times', async () => {
    await renderDashboard({
      dashboard: createDashboard({
        posts: [
          post('p1', 1, 'published', 'Launch day'),
          post('p2', 5, 'scheduled', 'Teaser'),
          post('p3', 9, 'draft', 'Too old to show'),
        ],
        integrations: [
          createIntegration({ connectedAt: ago(3), metadata: { username: 'acme' } }),
          createIntegration({
            connectedAt: ago(7),
            platform: { id: 'plt_tiktok', name: 'TikTok' },
            metadata: { username: 'acme.tok' },
          }),
          createIntegration({ connectedAt: ago(20), metadata: { username: 'oldest' } }),
        ],
      }),
    });

    const activity = await screen.findByRole('list', { name: 'Recent activity' });
    const rows = within(activity).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Published a post: "Launch day"1d ago',
      'Connected X account @acme3d ago',
      'Scheduled a post: "Teaser"5d ago',
      'Connected TikTok account @acme.tok7d ago',
    ]);
  });
});

describe('/dashboard plan banner', () => {
  it('offers Upgrade to /pricing without a plan', async () => {
    await renderDashboard({ dashboard: createDashboard({ plans: seededPlans() }) });
    const plan = await screen.findByRole('region', { name: 'Your plan' });
    expect(plan).toHaveAttribute('data-tone', 'upgrade');
    expect(plan).toHaveTextContent('No active plan');
    expect(plan).toHaveTextContent('Plans start at $9.00/month.');
    expect(within(plan).getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/pricing');
  });

  it('shows a trial with its days left and Manage Plan', async () => {
    await renderDashboard({
      dashboard: createDashboard({ subscription: createSubscription({ trialDaysRemaining: 1 }) }),
    });
    await screen.findByRole('region', { name: 'Your plan' });
    expect(banner()).toHaveAttribute('data-tone', 'trial');
    expect(banner()).toHaveTextContent('Free trial of Basic');
    expect(banner()).toHaveTextContent('1 day left in your trial.');
    expect(within(banner()).getByRole('link', { name: 'Manage Plan' })).toHaveAttribute(
      'href',
      '/pricing',
    );
  });

  it('shows an active plan with Manage Plan', async () => {
    await renderDashboard({
      dashboard: createDashboard({
        subscription: activeSubscription({ plan: { id: 'plan_pro', name: 'Pro' } }),
      }),
    });
    await screen.findByRole('region', { name: 'Your plan' });
    expect(banner()).toHaveAttribute('data-tone', 'active');
    expect(banner()).toHaveTextContent('Pro plan');
    expect(within(banner()).getByRole('link', { name: 'Manage Plan' })).toBeInTheDocument();
  });

  it('names the organization that pays for a covered one', async () => {
    await renderDashboard({
      dashboard: createDashboard({
        subscription: activeSubscription({
          plan: { id: 'plan_pro', name: 'Pro' },
          coveredBy: { organizationId: 'org_hq', organizationName: 'Agency HQ' },
        }),
      }),
    });
    await screen.findByRole('region', { name: 'Your plan' });
    expect(banner()).toHaveAttribute('data-tone', 'active');
    expect(banner()).toHaveTextContent('Covered by Pro (from Agency HQ)');
    expect(banner()).toHaveTextContent('Agency HQ pays for this plan.');
    expect(within(banner()).getByRole('link', { name: 'View Plan' })).toHaveAttribute(
      'href',
      '/pricing',
    );
  });

  it('offers Upgrade again once the plan is over', async () => {
    await renderDashboard({
      dashboard: createDashboard({ subscription: createSubscription({ status: 'EXPIRED' }) }),
    });
    await screen.findByRole('region', { name: 'Your plan' });
    expect(banner()).toHaveTextContent('Your Basic plan is no longer active');
    expect(within(banner()).getByRole('link', { name: 'Upgrade' })).toBeInTheDocument();
  });
});

describe('/dashboard failures and other organizations', () => {
  it('says the data could not be fetched, and Try Again loads it', async () => {
    let broken = true;
    const { user } = await renderDashboard({
      routes: {
        'GET /organizations/org_1/dashboard': () =>
          broken
            ? fail(500, 'INTERNAL', 'Database unavailable.')
            : ok(createDashboard({ postCounts: { total: 2, upcoming: 0 } })),
      },
    });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch dashboard data. Please try again later.');
    broken = false;
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));

    expect(await screen.findByRole('region', { name: 'Statistics' })).toBeInTheDocument();
    expect(stat('Total Posts')).toHaveTextContent('2');
  });

  it('shows the organization named in the address', async () => {
    const other = createDashboard({ organization: { id: 'org_9', name: 'Globex' } });
    mockServer({ me: createMe(), routes: dashboardRoute(other) });
    renderApp('/org/org_9/dashboard');
    expect(
      await screen.findByRole('heading', { name: 'Globex Dashboard', level: 1 }),
    ).toBeInTheDocument();
  });

  it('asks to select an organization when there is none', async () => {
    mockServer({ me: createMe({ organizationId: null }) });
    const router = createMemoryRouter([{ path: '/dashboard', element: <DashboardPage /> }], {
      initialEntries: ['/dashboard'],
    });
    render(
      <AppProvider queryClient={createTestQueryClient()}>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    expect(
      await screen.findByText('Please select an organization to view the dashboard.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeInTheDocument();
  });

  it('sends the user to onboarding when the organization goes away meanwhile', async () => {
    const { router } = await renderDashboard();
    await screen.findByRole('region', { name: 'Statistics' });
    // Another tab left the organization: the stored one is gone before the guard reacts.
    window.localStorage.removeItem('herald.currentOrgId');
    window.dispatchEvent(new StorageEvent('storage', { key: 'herald.currentOrgId' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding'));
  });
});
