import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { goToExternal } from '@/lib/browser';
import { createMe } from '@/testing/factories';
import { deferred, fail } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

vi.mock('@/lib/browser', () => ({ goToExternal: vi.fn() }));

beforeEach(() => {
  vi.mocked(goToExternal).mockClear();
});

describe('/login', () => {
  it('names the identity provider and sends the browser to the sign-in route', async () => {
    mockServer({ provider: { kind: 'google', label: 'Google' } });
    const { user } = renderApp('/login');

    const button = await screen.findByRole('button', { name: 'Continue with Google' });
    await user.click(button);

    expect(goToExternal).toHaveBeenCalledWith('/api/auth/google');
    expect(button).toBeDisabled();
  });

  it('falls back to a generic label when the provider is unknown', async () => {
    mockServer({ routes: { 'GET /auth/provider': fail(500, 'INTERNAL', 'Oops.') } });
    renderApp('/login');

    expect(
      await screen.findByRole('button', { name: 'Continue with your identity provider' }),
    ).toBeInTheDocument();
  });

  it('shows a spinner instead of the button while the session is checked', async () => {
    const gate = deferred();
    mockServer({
      routes: {
        'GET /auth/me': async () => {
          await gate.promise;
          return fail(401, 'UNAUTHENTICATED', 'Please sign in.');
        },
      },
    });
    renderApp('/login');

    // (The page's code loads first, behind the app's own loading spinner.)
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Checking your session…'),
    );
    expect(screen.queryByRole('button', { name: /Continue with/ })).not.toBeInTheDocument();
    gate.resolve();
    expect(await screen.findByRole('button', { name: /Continue with/ })).toBeInTheDocument();
  });

  it('offers a Back button to the home page', async () => {
    mockServer();
    renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Back' })).toHaveAttribute('href', '/');
  });

  it('shows the error the server sent back in the URL', async () => {
    mockServer();
    renderApp(`/login?error=${encodeURIComponent('Your account has been suspended.')}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account has been suspended.');
  });

  it('moves a signed-in member on to the dashboard', async () => {
    mockServer({ me: createMe({ organizationId: 'org_1' }) });
    const { router } = renderApp('/login');

    expect(
      await screen.findByRole('heading', { name: 'Acme Studio Dashboard' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('moves a signed-in user without an organization on to onboarding', async () => {
    mockServer({ me: createMe({ organizationId: null }) });
    const { router } = renderApp('/login');

    expect(await screen.findByRole('heading', { name: /Welcome/ })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/onboarding');
  });
});

describe('/signup', () => {
  it('explains the trial and uses the same sign-in as /login', async () => {
    mockServer({ provider: { kind: 'oidc', label: 'Acme SSO' } });
    const { user } = renderApp('/signup');

    expect(
      await screen.findByRole('heading', { name: 'Start your free trial' }),
    ).toBeInTheDocument();
    expect(screen.getByText('7-day free trial of every feature')).toBeInTheDocument();
    expect(screen.getByText('No credit card required')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Continue with Acme SSO' }));
    expect(goToExternal).toHaveBeenCalledWith('/api/auth/google');
  });

  it('is reachable from the landing page', async () => {
    mockServer({ provider: { kind: 'development', label: 'Herald Dev Login' } });
    const { user } = renderApp('/');

    await user.click(await screen.findByRole('link', { name: 'Get Started' }));
    expect(
      await screen.findByRole('heading', { name: 'Start your free trial' }),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole('button', { name: 'Continue with Herald Dev Login' }),
    ).toBeInTheDocument();
  });

  it('never starts a token refresh for the public provider call', async () => {
    const server = mockServer({
      routes: { 'GET /auth/provider': fail(401, 'UNAUTHENTICATED', 'No.') },
    });
    renderApp('/signup');
    await screen.findByRole('button', { name: 'Continue with your identity provider' });
    // Only /auth/me's own refresh attempt, none for the public provider call.
    expect(server.count('POST /auth/refreshToken')).toBe(1);
  });
});
