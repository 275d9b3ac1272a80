import type { AuditEntry } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  backOfficeRoutes,
  createBackOffice,
  operatorSession,
  type BackOffice,
} from '@/testing/admin-fixtures';
import { fail, ok } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

async function renderDashboard(
  state: BackOffice = createBackOffice(),
  routes = {},
  session = operatorSession(),
) {
  const server = mockServer({ me: session, routes: { ...backOfficeRoutes(state), ...routes } });
  const app = renderApp('/admin');
  await screen.findByRole('heading', { name: 'Admin Dashboard', level: 1 });
  return { ...app, server, state };
}

const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  id: `audit_${Math.random()}`,
  actor: { id: 'usr_ops', email: 'ops@example.com' },
  action: 'plan.update',
  target: { type: 'plan', id: 'plan_basic', label: 'Basic' },
  before: { price: 29 },
  after: { price: 39 },
  createdAt: '2026-03-30T10:00:00.000Z',
  ...overrides,
});

describe('/admin/dashboard', () => {
  it("greets the operator by name with today's date and time", async () => {
    await renderDashboard();
    expect(screen.getByText('Hi, Olga Ops!')).toBeInTheDocument();
    const date = screen.getByText(/ at /, { selector: 'time' });
    // 'MMMM DD, YYYY [at] hh:mm A'
    expect(date.textContent).toMatch(/^[A-Z][a-z]+ \d{2}, \d{4} at \d{2}:\d{2} (AM|PM)$/);
  });

  it('leaves the name out when the operator has none', async () => {
    await renderDashboard(createBackOffice(), {}, operatorSession({ displayName: null }));
    expect(screen.getByText('Hi!')).toBeInTheDocument();
  });

  it('shows the three real totals, each leading to its page', async () => {
    const { user, router } = await renderDashboard();
    const totals = screen.getByRole('navigation', { name: 'Totals' });
    const users = await within(totals).findByRole('link', { name: 'Users 2' });
    expect(users).toHaveAttribute('href', '/admin/users');
    expect(within(totals).getByRole('link', { name: 'Platforms 7' })).toHaveAttribute(
      'href',
      '/admin/platforms',
    );
    expect(within(totals).getByRole('link', { name: 'Plans 3' })).toHaveAttribute(
      'href',
      '/admin/plans',
    );
    await user.click(within(totals).getByRole('link', { name: 'Plans 3' }));
    expect(await screen.findByRole('heading', { name: 'Plan Management' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/plans');
  });

  it('shows an error banner with Try again when the totals cannot be loaded', async () => {
    const { user, server } = await renderDashboard(createBackOffice(), {
      'GET /admin/overview': fail(503, 'UNAVAILABLE', 'The service is temporarily unavailable.'),
    });
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('The service is temporarily unavailable.');
    server.on('GET /admin/overview', ok({ counts: { users: 9, platforms: 1, plans: 2 } }));
    await user.click(within(banner).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Users 9' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('charts sign-ups and posts per day, asked in the browser time zone', async () => {
    const { server } = await renderDashboard();
    const chart = await screen.findByRole('img', {
      name: 'Sign-ups and posts per day from Mar 1 to Mar 30: 4 sign-ups and 5 posts in all.',
    });
    expect(chart.querySelectorAll('rect')).toHaveLength(60);
    expect(screen.queryByText(/coming soon/i)).toBeNull();
    const numbers = screen.getByRole('table', { name: 'Sign-ups and posts per day' });
    expect(within(numbers).getByRole('row', { name: 'Mar 29 3 0' })).toBeInTheDocument();
    expect(within(numbers).getByRole('row', { name: 'Mar 30 1 5' })).toBeInTheDocument();
    const asked = server.requests.find((r) => r.path === '/admin/activity')!;
    expect(asked.query.get('timezone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('lists the audit log: who did what to which, and the values before and after', async () => {
    const state = createBackOffice({
      audit: [
        entry({}),
        entry({
          actor: null,
          action: 'operator.grant',
          target: { type: 'user', id: 'usr_ada', label: 'ada@example.com' },
          before: { isAdmin: false },
          after: { isAdmin: true },
        }),
        entry({
          action: 'platform.create',
          target: { type: 'platform', id: 'plt_b', label: 'Bluesky' },
          before: null,
          after: { name: 'Bluesky' },
        }),
        entry({
          actor: { id: 'usr_ada', email: 'ada@example.com', apiKeyId: 'key_9' },
          action: 'approval_link.create',
          target: { type: 'approval_link', id: 'lnk_1', label: 'Client approval link for Bo' },
          before: null,
          after: { approverName: 'Bo' },
        }),
      ],
    });
    await renderDashboard(state);
    const log = await screen.findByRole('list', { name: 'Operator actions' });
    // The entries, not the lists of changed fields inside them.
    const items = within(log)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement === log);
    expect(items).toHaveLength(4);
    expect(items[0]).toHaveTextContent('ops@example.com updated the plan Basic');
    expect(items[0]).toHaveTextContent('price: 29 → 39');
    expect(items[0]).toHaveTextContent('Mar 30, 2026');
    expect(items[1]).toHaveTextContent('The command line made an operator of ada@example.com');
    expect(items[1]).toHaveTextContent('is admin: false → true');
    expect(items[2]).toHaveTextContent('ops@example.com created the platform Bluesky');
    expect(items[2]).toHaveTextContent('name: “Bluesky”');
    expect(items[3]).toHaveTextContent(
      'ada@example.com (through API key key_9) sent Client approval link for Bo',
    );
  });

  it('says when no operator has acted yet', async () => {
    await renderDashboard();
    expect(await screen.findByText('No operator actions yet.')).toBeInTheDocument();
  });
});

describe('the admin shell', () => {
  it('searches users from the header on the dashboard', async () => {
    const { user, router, server } = await renderDashboard();
    const search = screen.getByRole('searchbox', { name: 'Search the back-office' });
    await user.type(search, 'lovelace{Enter}');
    expect(await screen.findByRole('heading', { name: 'User Management' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/users');
    expect(screen.getByRole('searchbox', { name: 'Search users' })).toHaveValue('lovelace');
    await waitFor(() =>
      expect(
        server.requests
          .filter((r) => r.path === '/users')
          .at(-1)
          ?.query.get('search'),
      ).toBe('lovelace'),
    );
  });

  it('starts each page with an empty search', async () => {
    const { user } = await renderDashboard();
    await user.click(screen.getByRole('link', { name: 'Platforms' }));
    const search = await screen.findByRole('searchbox', { name: 'Search the back-office' });
    await user.type(search, 'tik');
    await user.click(screen.getByRole('link', { name: 'Plans' }));
    await screen.findByRole('heading', { name: 'Plan Management' });
    expect(screen.getByRole('searchbox', { name: 'Search the back-office' })).toHaveValue('');
  });

  it('signs out from the profile menu', async () => {
    const { user, router, server } = await renderDashboard(createBackOffice(), {
      'POST /auth/logout': ok({ message: 'Signed out.' }),
    });
    await user.click(screen.getByRole('button', { name: 'Open profile menu for Olga Ops' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Herald' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(server.count('POST /auth/logout')).toBe(1);
  });
});
