import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { createMe } from '@/testing/factories';
import { deferred, fail, ok, unauthenticated } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

const signInHeading = () => screen.findByRole('heading', { name: 'Sign in to Herald' });

describe('route guards', () => {
  it('sends a visitor from a shell page to /login after one refresh attempt', async () => {
    const server = mockServer({ me: null });
    const { router } = renderApp('/dashboard');

    expect(await signInHeading()).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(server.count('POST /auth/refreshToken')).toBe(1);
  });

  it('shows a spinner, never a blank page, while the session is checked', async () => {
    const gate = deferred();
    mockServer({
      routes: {
        'GET /auth/me': async () => {
          await gate.promise;
          return ok(createMe());
        },
      },
    });
    renderApp('/dashboard');

    // First the page's code loads, then the session is checked: a spinner all along.
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(await screen.findByText('Checking your session…')).toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    gate.resolve();
    expect(
      await screen.findByRole('heading', { name: 'Acme Studio Dashboard' }),
    ).toBeInTheDocument();
  });

  it('sends a signed-in user without an organization to /onboarding', async () => {
    mockServer({ me: createMe({ organizationId: null, user: { displayName: 'Grace Hopper' } }) });
    const { router } = renderApp('/content');

    expect(
      await screen.findByRole('heading', { name: 'Welcome, Grace Hopper!' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/onboarding');
  });

  it('greets by email on /onboarding when the user has no display name', async () => {
    mockServer({
      me: createMe({ organizationId: null, user: { displayName: null, email: 'kim@example.com' } }),
    });
    renderApp('/onboarding');

    expect(
      await screen.findByRole('heading', { name: /Welcome, kim@example.com/ }),
    ).toBeInTheDocument();
  });

  it('opens the page for a member and remembers their organization', async () => {
    mockServer({ me: createMe({ organizationId: 'org_42' }) });
    renderApp('/team');

    expect(await screen.findByRole('heading', { name: 'Team Management' })).toBeInTheDocument();
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBe('org_42');
  });

  it('follows the current organization the server keeps, whose permissions /auth/me lists', async () => {
    window.localStorage.setItem(storageKeys.currentOrgId, 'org_stale');
    mockServer({ me: createMe({ organizationId: 'org_server', organizationName: 'Globex' }) });
    renderApp('/dashboard');

    expect(await screen.findByRole('heading', { name: 'Globex Dashboard' })).toBeInTheDocument();
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBe('org_server');
  });

  it('forgets a stored organization the user no longer belongs to', async () => {
    window.localStorage.setItem(storageKeys.currentOrgId, 'org_left');
    mockServer({ me: createMe({ organizationId: null }) });
    const { router } = renderApp('/dashboard');

    expect(await screen.findByRole('heading', { name: 'Your Organizations' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/onboarding');
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBeNull();
  });

  it('renews an expired access token silently and opens the page', async () => {
    let meCalls = 0;
    const server = mockServer({
      routes: {
        'GET /auth/me': () => (++meCalls === 1 ? unauthenticated() : ok(createMe())),
        'POST /auth/refreshToken': ok({ message: 'Session renewed.' }),
      },
    });
    renderApp('/calendar');

    expect(await screen.findByRole('heading', { name: 'Calendar' })).toBeInTheDocument();
    expect(server.count('POST /auth/refreshToken')).toBe(1);
  });

  it('forgets the stored organization when the session cannot be renewed', async () => {
    window.localStorage.setItem(storageKeys.currentOrgId, 'org_old');
    mockServer({ me: null });
    renderApp('/inbox');

    expect(await signInHeading()).toBeInTheDocument();
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBeNull();
  });

  it('tells the user when the session check fails and treats them as signed out', async () => {
    mockServer({
      routes: { 'GET /auth/me': fail(503, 'UNAVAILABLE', 'The database is unreachable.') },
    });
    renderApp('/settings');

    expect(await screen.findByText('The database is unreachable.')).toBeInTheDocument();
    expect(await signInHeading()).toBeInTheDocument();
  });

  it("falls back to 'Authentication failed' when the failure has no message", async () => {
    mockServer({ routes: { 'GET /auth/me': new Response('oops', { status: 500 }) } });
    renderApp('/settings');

    expect(await screen.findByText(/server answered with an unexpected error/)).toBeInTheDocument();
  });

  it('sends a visitor from /onboarding to /login', async () => {
    mockServer({ me: null });
    renderApp('/onboarding');
    expect(await signInHeading()).toBeInTheDocument();
  });

  it('answers 403 to a signed-in user who is not an operator on admin routes', async () => {
    mockServer({ me: createMe({ user: { isAdmin: false } }) });
    const { router } = renderApp('/admin/users');

    expect(await screen.findByRole('heading', { name: 'Access Forbidden' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/403');
  });

  it('opens admin routes to operators, even without an organization', async () => {
    mockServer({ me: createMe({ organizationId: null, user: { isAdmin: true } }) });
    renderApp('/admin');

    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Back-office' })).toBeInTheDocument();
  });

  it('sends a visitor from admin routes to /login', async () => {
    mockServer({ me: null });
    renderApp('/admin/plans');
    expect(await signInHeading()).toBeInTheDocument();
  });
});
