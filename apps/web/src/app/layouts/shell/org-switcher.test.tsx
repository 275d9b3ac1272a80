import type { MeData } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { createMe, myOrganizationOf } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';
import { pathAfterSwitch } from './org-switch-path';

const uuid = (n: number) => `5b0c6a8e-8d1f-4f5e-9a51-1c1e2f3a4b${String(n).padStart(2, '0')}`;
const acme = createMe({ organizationName: 'Acme Studio' });
const client = (n: number, name: string) => ({
  ...myOrganizationOf(acme),
  id: uuid(n),
  name,
  isCurrent: false,
});

/** A server whose /auth/me follows the current organization, as the real one does. */
function switchingServer(organizations: ReturnType<typeof client>[], routes = {}) {
  let session: MeData = acme;
  const server = mockServer({
    routes: {
      'GET /auth/me': () => ok(session),
      'GET /member/organizations': ok({
        organizations: [myOrganizationOf(acme), ...organizations],
      }),
      'POST /member/current-organization': (request: { body: unknown }) => {
        const { organizationId } = request.body as { organizationId: string };
        const to = organizations.find((o) => o.id === organizationId)!;
        session = createMe({ organizationId, organizationName: to.name });
        return ok({ organizationId });
      },
      ...routes,
    },
  });
  return server;
}

const switcherButton = () => screen.findByRole('button', { name: /Switch organization/ });

describe('organization switcher', () => {
  it('switches from the top bar and stays on the same section of the app', async () => {
    const server = switchingServer([client(1, 'Globex')]);
    const { user, router } = renderApp('/calendar?date=2026-03-09&view=week&account=abc');

    await user.click(await switcherButton());
    const panel = screen.getByRole('dialog', { name: 'Switch organization' });
    // Two organizations need no search field.
    expect(within(panel).queryByLabelText('Search organizations')).toBeNull();
    expect(await within(panel).findByRole('button', { name: /Acme Studio/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(within(panel).getByRole('link', { name: /All clients/ })).toHaveAttribute(
      'href',
      '/all-clients',
    );
    await user.click(within(panel).getByRole('button', { name: /Globex/ }));

    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Organization: Globex/ })).toBeInTheDocument(),
    );
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      organizationId: uuid(1),
    });
    expect(router.state.location.pathname).toBe('/calendar');
    expect(router.state.location.search).toBe('?date=2026-03-09&view=week');
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBe(uuid(1));
    expect(screen.queryByRole('dialog', { name: 'Switch organization' })).toBeNull();
  });

  it('searches many organizations, offers the recent ones first and walks them with the arrow keys', async () => {
    const names = ['Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark Industries', 'Wayne Foods'];
    switchingServer(names.map((name, i) => client(i + 1, name)));
    window.localStorage.setItem(
      storageKeys.recentOrganizations,
      JSON.stringify([uuid(5), 'gone-organization', uuid(3)]),
    );
    const { user } = renderApp('/dashboard');

    await user.click(await switcherButton());
    const panel = screen.getByRole('dialog', { name: 'Switch organization' });
    const search = within(panel).getByLabelText('Search organizations');
    await waitFor(() => expect(search).toHaveFocus());
    const recent = await within(panel).findByRole('list', { name: 'Recent organizations' });
    expect(
      within(recent)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([expect.stringContaining('Stark Industries'), expect.stringContaining('Umbrella')]);

    await user.keyboard('{ArrowDown}');
    expect(within(recent).getAllByRole('button')[0]).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(search).toHaveFocus();

    await user.type(search, 'in');
    const list = within(panel).getByRole('list', { name: 'Your organizations' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([expect.stringContaining('Initech'), expect.stringContaining('Stark Industries')]);
    expect(within(panel).queryByRole('list', { name: 'Recent organizations' })).toBeNull();
    await user.type(search, 'zz');
    expect(within(panel).getByText('No organization is called “inzz”.')).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Switch organization' })).toBeNull();
    expect(await switcherButton()).toHaveFocus();
  });

  it('says so and stays put when the switch is refused', async () => {
    switchingServer([client(1, 'Globex')], {
      'POST /member/current-organization': fail(
        403,
        'FORBIDDEN',
        'You are no longer a member of Globex.',
      ),
    });
    const { user, router } = renderApp('/analytics');
    await user.click(await switcherButton());
    await user.click(await screen.findByRole('button', { name: /Globex/ }));
    expect(await screen.findByText('You are no longer a member of Globex.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/analytics');
    expect(screen.getByRole('button', { name: /Organization: Acme Studio/ })).toBeInTheDocument();
  });
});

describe('pathAfterSwitch', () => {
  it('keeps the section, drops what names one item or account of the old organization', () => {
    expect(pathAfterSwitch('/content/4f1c/edit', '')).toBe('/content');
    expect(pathAfterSwitch('/content/import', '')).toBe('/content/import');
    expect(pathAfterSwitch('/inbox', '?conversation=abc')).toBe('/inbox');
    expect(pathAfterSwitch('/settings', '?tab=queue')).toBe('/settings');
    expect(pathAfterSwitch('/org/abc/settings/integrations', '')).toBe('/dashboard');
    expect(pathAfterSwitch('/calendar', '?account=x')).toBe('/calendar');
    expect(pathAfterSwitch('/calendar', '?view=month&date=2026-03-01')).toBe(
      '/calendar?date=2026-03-01&view=month',
    );
  });
});
