import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { PERMISSION_NAMES } from '@herald/contract';
import { createMe } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { createNotification, notificationRoutes } from '@/testing/notification-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const me = createMe({ user: { displayName: 'Ada Lovelace', email: 'ada@example.com' } });

async function renderShell(path = '/dashboard', routes = {}, who = me) {
  const server = mockServer({ me: who, routes });
  const app = renderApp(path);
  await screen.findByRole('heading', { level: 1 });
  return { ...app, server };
}

describe('authenticated shell', () => {
  it('lists the sidebar pages and the organization block, with no made-up inbox count', async () => {
    await renderShell();
    const nav = screen.getByRole('navigation', { name: 'Main' });

    for (const [label, href] of [
      ['Dashboard', '/dashboard'],
      ['Inbox', '/inbox'],
      ['Posts', '/content'],
      ['Analytics', '/analytics'],
      ['Pricing', '/pricing'],
      ['Notifications', '/notifications'],
      ['Settings', '/settings'],
    ]) {
      expect(within(nav).getByRole('link', { name: label })).toHaveAttribute('href', href);
    }
    // Nothing unread in the inbox: no badge at all (never the spec's fixed 3).
    expect(within(nav).getByRole('link', { name: 'Inbox' })).toHaveTextContent(/^Inbox$/);
    expect(
      within(nav).getByRole('link', { name: /Current organization Acme Studio/ }),
    ).toHaveAttribute('href', '/onboarding');
  });

  it('hides Inbox from a member who may not read messages, instead of a link that dead-ends', async () => {
    const withoutInbox = createMe({
      permissions: PERMISSION_NAMES.filter((name) => name !== 'dm:view'),
    });
    const { server } = await renderShell('/dashboard', {}, withoutInbox);
    const nav = screen.getByRole('navigation', { name: 'Main' });

    expect(within(nav).getByRole('link', { name: 'Posts' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: /Inbox/ })).toBeNull();
    expect(server.requests.some((r) => r.path.includes('/inbox'))).toBe(false);
  });

  it('shows the real unread notification count on Notifications, and nothing at zero', async () => {
    const routes = notificationRoutes([
      createNotification({ read: false }),
      createNotification({ read: false }),
      createNotification({ read: true }),
    ]);
    const { server } = await renderShell('/dashboard', routes);
    const nav = screen.getByRole('navigation', { name: 'Main' });

    expect(
      await within(nav).findByRole('link', { name: 'Notifications 2 unread' }),
    ).toHaveAttribute('href', '/notifications');
    expect(server.requests.find((r) => r.path === '/notifications')?.query.get('limit')).toBe('1');
    expect(within(nav).queryByText(/^3$/)).toBeNull();
  });

  it('shows no Notifications badge when everything is read', async () => {
    await renderShell('/dashboard', notificationRoutes([createNotification({ read: true })]));
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await waitFor(() =>
      expect(within(nav).getByRole('link', { name: 'Notifications' })).toHaveTextContent(
        /^Notifications$/,
      ),
    );
  });

  it('offers Calendar and Team in the top bar', async () => {
    const { user } = await renderShell();
    const topBar = screen.getByRole('navigation', { name: 'Workspace' });

    await user.click(within(topBar).getByRole('link', { name: 'Calendar' }));
    expect(await screen.findByRole('heading', { name: 'Calendar' })).toBeInTheDocument();
    expect(within(topBar).getByRole('link', { name: 'Team' })).toHaveAttribute('href', '/team');
  });

  it('opens the real inbox at /inbox', async () => {
    await renderShell('/inbox', {
      'GET /organizations/org_1/inbox/conversations': {
        status: 200,
        body: { status: 'success', data: { conversations: [] }, meta: { nextCursor: null } },
      },
    });

    expect(await screen.findByRole('heading', { name: 'Inbox', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(/This page is not available yet/)).toBeNull();
  });

  it('shows name and email in the profile menu, and Logout signs out to /login', async () => {
    const { user, router, server } = await renderShell('/dashboard', {
      'POST /auth/logout': ok({ message: 'Signed out.' }),
    });

    await user.click(screen.getByRole('button', { name: 'Open profile menu for Ada Lovelace' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(menu).getByText('ada@example.com')).toBeInTheDocument();

    await user.click(within(menu).getByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByRole('heading', { name: 'Sign in to Herald' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(server.count('POST /auth/logout')).toBe(1);
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBeNull();
  });

  it('offers operators the back-office in the profile menu, and no one else', async () => {
    const { user } = await renderShell('/dashboard');
    await user.click(screen.getByRole('button', { name: /Open profile menu/ }));
    expect(
      within(await screen.findByRole('menu')).queryByRole('menuitem', { name: 'Back-office' }),
    ).toBeNull();
  });

  it('links an operator to /admin from the profile menu', async () => {
    const operator = createMe({ user: { displayName: 'Olive Operator', isAdmin: true } });
    const { user } = await renderShell('/dashboard', {}, operator);
    await user.click(screen.getByRole('button', { name: /Open profile menu/ }));
    const link = within(await screen.findByRole('menu')).getByRole('menuitem', {
      name: 'Back-office',
    });
    expect(link).toHaveAttribute('href', '/admin');
  });

  it("keeps the user signed in and says 'Logout failed' when logout fails", async () => {
    const { user, router } = await renderShell('/dashboard', {
      'POST /auth/logout': fail(500, 'INTERNAL', 'Something broke.'),
    });

    await user.click(screen.getByRole('button', { name: /Open profile menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByText('Logout failed')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('shows initials when the user has no avatar', async () => {
    await renderShell();
    expect(screen.getByRole('button', { name: /Open profile menu/ })).toHaveTextContent('AL');
  });

  it('closes the mobile menu when a page is chosen in it', async () => {
    const { user } = await renderShell();

    await user.click(screen.getByRole('button', { name: 'Open navigation menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Navigation' });
    await user.click(within(drawer).getByRole('link', { name: 'Notifications' }));

    expect(await screen.findByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('closes the mobile menu on any route change, e.g. browser back', async () => {
    const { user, router } = await renderShell('/dashboard');
    await user.click(screen.getByRole('link', { name: 'Team' }));
    await screen.findByRole('heading', { name: 'Team Management' });

    await user.click(screen.getByRole('button', { name: 'Open navigation menu' }));
    expect(await screen.findByRole('dialog', { name: 'Navigation' })).toBeInTheDocument();
    await router.navigate(-1);

    expect(
      await screen.findByRole('heading', { name: 'Acme Studio Dashboard' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
