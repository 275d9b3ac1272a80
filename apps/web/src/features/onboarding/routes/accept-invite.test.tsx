import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { goToExternal } from '@/lib/browser';
import { storageKeys } from '@/lib/storage';
import { createMe } from '@/testing/factories';
import { deferred, fail, ok } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

vi.mock('@/lib/browser', () => ({ goToExternal: vi.fn() }));

beforeEach(() => {
  vi.mocked(goToExternal).mockClear();
});

const orgUuid = '0f4b8c2a-9c7e-4a51-8d5e-6f7a8b9c0d1e';
const newcomer = createMe({ organizationId: null, user: { displayName: 'Tess' } });
const joined = {
  member: {
    id: 'mem_1',
    orgId: orgUuid,
    organizationId: orgUuid,
    organization: { name: 'Globex' },
  },
};

describe('/invite/accept', () => {
  it('says the link is invalid when it has no token', async () => {
    const server = mockServer({ me: newcomer });
    renderApp('/invite/accept');

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid invitation link.');
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
    expect(server.count('POST /member/accept-invite')).toBe(0);
  });

  it('asks a visitor to sign in, and sign-in comes back to the same link', async () => {
    const server = mockServer({ me: null });
    const { user } = renderApp('/invite/accept?token=tok_abc');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You need to be logged in to accept an invitation. Please login first.',
    );
    await user.click(screen.getByRole('button', { name: 'Go to Login' }));

    expect(goToExternal).toHaveBeenCalledWith(
      `/api/auth/google?returnTo=${encodeURIComponent('/invite/accept?token=tok_abc')}`,
    );
    expect(server.count('POST /member/accept-invite')).toBe(0);
  });

  it('accepts once, makes the organization current and opens the dashboard after 3 s', async () => {
    const answer = deferred();
    let session = newcomer;
    const server = mockServer({
      routes: {
        'GET /auth/me': () => ok(session),
        'POST /member/accept-invite': async () => {
          await answer.promise;
          session = createMe({ organizationId: orgUuid, organizationName: 'Globex' });
          return ok(joined);
        },
      },
    });
    const { router } = renderApp('/invite/accept?token=tok_abc');

    expect(
      await screen.findByRole('heading', { name: 'Accepting invitation' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Accepting your invitation');
    answer.resolve();

    expect(await screen.findByRole('heading', { name: 'Invitation accepted' })).toBeInTheDocument();
    expect(screen.getByText(/You joined/)).toHaveTextContent('You joined Globex.');
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBe(orgUuid);
    expect(server.count('POST /member/accept-invite')).toBe(1);
    expect(server.requests.find((r) => r.path === '/member/accept-invite')?.body).toEqual({
      token: 'tok_abc',
    });

    expect(
      await screen.findByRole('heading', { name: 'Globex Dashboard' }, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it.each([
    [403, 'FORBIDDEN', 'This invitation was sent to another email address.'],
    [410, 'EXPIRED', 'This invitation has expired. Ask for a new one.'],
    [409, 'CONFLICT', 'This invitation has already been used.'],
  ])("shows the server's reason for a %i", async (status, code, message) => {
    mockServer({
      me: newcomer,
      routes: { 'POST /member/accept-invite': fail(status, code, message) },
    });
    renderApp('/invite/accept?token=tok_abc');

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to Login' })).toBeInTheDocument();
  });

  it('falls back to a general explanation when the answer makes no sense', async () => {
    mockServer({ me: newcomer, routes: { 'POST /member/accept-invite': ok({ nothing: true }) } });
    renderApp('/invite/accept?token=tok_abc');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An error occurred while accepting the invitation. It might be expired or invalid.',
    );
  });

  it('asks to sign in again when the session ended meanwhile', async () => {
    mockServer({
      me: newcomer,
      routes: { 'POST /member/accept-invite': fail(401, 'UNAUTHENTICATED', 'Please sign in.') },
    });
    renderApp('/invite/accept?token=tok_abc');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You need to be logged in to accept an invitation. Please login first.',
    );
  });
});
