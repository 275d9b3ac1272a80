import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meQueryKey } from '@/lib/auth';
import { storageKeys } from '@/lib/storage';
import { createMe } from '@/testing/factories';
import { deferred, ok } from '@/testing/fake-server';
import { createTestQueryClient, mockServer, renderApp } from '@/testing/render-app';

describe('/auth/login-success', () => {
  it('stores the organization from the URL and opens its dashboard', async () => {
    mockServer({ me: createMe({ organizationId: 'org_7' }) });
    const { router } = renderApp('/auth/login-success?orgId=org_7');

    expect(
      await screen.findByRole('heading', { name: 'Acme Studio Dashboard' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/org/org_7/dashboard');
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBe('org_7');
  });

  it('goes to onboarding without an organization', async () => {
    mockServer({ me: createMe({ organizationId: null, user: { displayName: 'Lin' } }) });
    const { router } = renderApp('/auth/login-success');

    // The sign-in page greets too: wait for onboarding's own content.
    expect(await screen.findByRole('heading', { name: 'Your Organizations' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome, Lin!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/onboarding');
  });

  it('welcomes the user while things are set up', async () => {
    const gate = deferred();
    mockServer({
      routes: {
        'GET /auth/me': async () => {
          await gate.promise;
          return ok(createMe());
        },
      },
    });
    renderApp('/auth/login-success?orgId=org_1');

    expect(await screen.findByRole('heading', { name: 'Welcome to Herald!' })).toBeInTheDocument();
    expect(screen.getByText("We're setting things up for you...")).toBeInTheDocument();
    gate.resolve();
    expect(
      await screen.findByRole('heading', { name: 'Acme Studio Dashboard' }),
    ).toBeInTheDocument();
  });

  it('refetches the session even when a visitor answer is cached', async () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(meQueryKey, null);
    const server = mockServer({ me: createMe() });
    renderApp('/auth/login-success?orgId=org_1', { queryClient });

    expect(
      await screen.findByRole('heading', { name: 'Acme Studio Dashboard' }),
    ).toBeInTheDocument();
    expect(server.count('GET /auth/me')).toBeGreaterThanOrEqual(1);
  });

  it('returns to /login with an explanation when no session was created', async () => {
    mockServer({ me: null });
    const { router } = renderApp('/auth/login-success?orgId=org_1');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sign-in did not complete. Please try again.',
    );
    expect(router.state.location.pathname).toBe('/login');
  });
});
