import type { MeData } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { createMe, myOrganizationOf } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';
import { createPendingInvite } from '@/testing/team-fixtures';

const newcomer = createMe({ organizationId: null, user: { displayName: 'Lin Wu' } });
const orgUuid = '5b0c6a8e-8d1f-4f5e-9a51-1c1e2f3a4b5c';

/** A server whose /auth/me follows the current organization, as the real one does. */
function sessionServer(initial: MeData, routes = {}) {
  let session = initial;
  const server = mockServer({ routes: { 'GET /auth/me': () => ok(session), ...routes } });
  return {
    ...server,
    switchTo(next: MeData) {
      session = next;
    },
  };
}

describe('/onboarding', () => {
  it('welcomes the user and lists their organizations, marking the current one', async () => {
    const me = createMe({ organizationName: 'Acme Studio' });
    mockServer({
      me,
      routes: {
        'GET /member/organizations': ok({
          organizations: [
            myOrganizationOf(me),
            { ...myOrganizationOf(me), id: 'org_2', name: 'Globex', isCurrent: false },
          ],
        }),
      },
    });
    renderApp('/onboarding');

    expect(await screen.findByRole('button', { name: /Globex/ })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Welcome, Ada Lovelace!/ })).toBeInTheDocument();
    const current = screen.getByRole('button', { name: /Acme Studio/ });
    expect(current).toHaveAttribute('aria-current', 'true');
    expect(within(current).getByText('Current')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Globex/ })).not.toHaveTextContent('Current');
  });

  it('creates an organization, makes it current and opens its dashboard a second later', async () => {
    const server = sessionServer(newcomer, {
      'POST /organizations': () => {
        server.switchTo(createMe({ organizationId: orgUuid, organizationName: 'Acme Studio' }));
        return ok({
          organization: {
            id: orgUuid,
            name: 'Acme Studio',
            defaultTimeZone: null,
            requirePostApproval: false,
            postApprovalRoleIds: [],
            ownerUserId: null,
            branding: { logoUrl: null, color: null },
            createdAt: '2026-03-01',
          },
        });
      },
    });
    const { user, router } = renderApp('/onboarding');

    await user.click(await screen.findByRole('button', { name: 'Create Organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Organization' });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Organization name cannot be empty.')).toBeInTheDocument();
    expect(server.count('POST /organizations')).toBe(0);

    await user.type(within(dialog).getByLabelText('Organization name'), '  Acme Studio ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Organization "Acme Studio" created!')).toBeInTheDocument();
    expect(server.requests.find((r) => r.path === '/organizations')?.body).toEqual({
      name: 'Acme Studio',
    });
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBe(orgUuid);
    expect(router.state.location.pathname).toBe('/onboarding');
    expect(
      await screen.findByRole('heading', { name: 'Acme Studio Dashboard' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it("shows the server's reason when the organization cannot be created", async () => {
    mockServer({
      me: newcomer,
      routes: {
        'POST /organizations': fail(403, 'FORBIDDEN', 'Your plan allows only 1 organization.'),
      },
    });
    const { user } = renderApp('/onboarding');

    await user.click(await screen.findByRole('button', { name: 'Create Organization' }));
    await user.type(screen.getByLabelText('Organization name'), 'Second');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Your plan allows only 1 organization.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Create Organization' })).toBeInTheDocument();
  });

  it('accepts an invitation, switches to that organization and opens its dashboard', async () => {
    const invite = createPendingInvite({ organization: { id: orgUuid, name: 'Globex' } });
    const server = sessionServer(newcomer, {
      'GET /member/pending': ok({ pendingInvites: [invite] }),
      'POST /member/accept-invite': () => {
        server.switchTo(createMe({ organizationId: orgUuid, organizationName: 'Globex' }));
        return ok({
          member: {
            id: 'mem_9',
            orgId: orgUuid,
            organizationId: orgUuid,
            organization: { name: 'Globex' },
          },
        });
      },
    });
    const { user, router } = renderApp('/onboarding');

    expect(await screen.findByText('You have 1 pending invitation.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View Invitations' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pending Invitations' });
    expect(within(dialog).getByText('Globex')).toBeInTheDocument();
    expect(
      within(dialog).getByText(/Invited by Hank Scorpio as Content Creator/),
    ).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Accept invitation to Globex' }));

    expect(await screen.findByText('You joined Globex!')).toBeInTheDocument();
    expect(server.requests.find((r) => r.path === '/member/accept-invite')?.body).toEqual({
      invitationId: invite.id,
    });
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBe(orgUuid);
    expect(router.state.location.pathname).toBe('/onboarding');
    expect(
      await screen.findByRole('heading', { name: 'Globex Dashboard' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('tells the user when an invitation cannot be accepted', async () => {
    mockServer({
      me: newcomer,
      routes: {
        'GET /member/pending': ok({ pendingInvites: [createPendingInvite()] }),
        'POST /member/accept-invite': fail(410, 'EXPIRED', 'This invitation has expired.'),
      },
    });
    const { user, router } = renderApp('/onboarding');

    await user.click(await screen.findByRole('button', { name: 'View Invitations' }));
    await user.click(await screen.findByRole('button', { name: /Accept invitation/ }));

    expect(await screen.findByText('This invitation has expired.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/onboarding');
  });

  it('declines an invitation on the server and removes it from the list', async () => {
    const first = createPendingInvite({ organization: { id: 'org_a', name: 'Globex' } });
    const second = createPendingInvite({ organization: { id: 'org_b', name: 'Initech' } });
    const server = mockServer({
      me: newcomer,
      routes: {
        'GET /member/pending': ok({ pendingInvites: [first, second] }),
        'POST /member/decline-invite': ok({ message: 'Invitation declined.' }),
      },
    });
    const { user } = renderApp('/onboarding');

    expect(await screen.findByText('You have 2 pending invitations.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View Invitations' }));
    await user.click(await screen.findByRole('button', { name: 'Decline invitation to Globex' }));

    await waitFor(() =>
      expect(
        screen.queryByRole('button', { name: /invitation to Globex/ }),
      ).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('button', { name: 'Accept invitation to Initech' })).toBeEnabled();
    expect(server.requests.find((r) => r.path === '/member/decline-invite')?.body).toEqual({
      invitationId: first.id,
    });
    expect(screen.getByText('You have 1 pending invitation.')).toBeInTheDocument();
  });

  it('switches organization on the server, then opens the dashboard', async () => {
    const me = createMe({ organizationName: 'Acme Studio' });
    const other = { ...myOrganizationOf(me), id: orgUuid, name: 'Globex', isCurrent: false };
    const server = sessionServer(me, {
      'GET /member/organizations': ok({ organizations: [myOrganizationOf(me), other] }),
      'POST /member/current-organization': () => {
        server.switchTo(createMe({ organizationId: orgUuid, organizationName: 'Globex' }));
        return ok({ organizationId: orgUuid });
      },
    });
    const { user, router } = renderApp('/onboarding');

    await user.click(await screen.findByRole('button', { name: /Globex/ }));

    expect(await screen.findByText('Switched to Globex')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      organizationId: orgUuid,
    });
    expect(
      await screen.findByRole('heading', { name: 'Globex Dashboard' }, { timeout: 2000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBe(orgUuid);
    expect(screen.getByRole('link', { name: /Current organization Globex/ })).toBeInTheDocument();
  });

  it('says so when the onboarding data cannot be loaded', async () => {
    mockServer({ me: newcomer, routes: { 'GET /member/pending': ok({ unexpected: true }) } });
    renderApp('/onboarding');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load your onboarding data. Please refresh the page.',
    );
  });
});

describe('/create-organization', () => {
  it('creates the organization and opens its dashboard', async () => {
    const server = sessionServer(newcomer, {
      'POST /organizations': () => {
        server.switchTo(createMe({ organizationId: orgUuid, organizationName: 'Initech' }));
        return ok({
          organization: {
            id: orgUuid,
            name: 'Initech',
            defaultTimeZone: null,
            requirePostApproval: false,
            postApprovalRoleIds: [],
            ownerUserId: null,
            branding: { logoUrl: null, color: null },
            createdAt: '2026-03-01',
          },
        });
      },
    });
    const { user, router } = renderApp('/create-organization');

    await user.type(await screen.findByLabelText('Organization name'), 'Initech');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(
      await screen.findByRole('heading', { name: 'Initech Dashboard' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('goes back to onboarding when closed', async () => {
    mockServer({ me: newcomer });
    const { user, router } = renderApp('/create-organization');

    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: /Welcome, Lin Wu/ })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/onboarding');
  });
});
