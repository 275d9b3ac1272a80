import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { createMe } from '@/testing/factories';
import { mockServer, renderApp } from '@/testing/render-app';

const banner = () => screen.queryByRole('region', { name: 'Cookies on Herald' });

describe('cookie banner', () => {
  it.each([
    ['Accept All', 'accepted'],
    ['Reject All', 'rejected'],
  ])('stores the choice made with %s and stops asking', async (button, stored) => {
    mockServer();
    const first = renderApp('/');
    const { user } = first;

    expect(await screen.findByRole('region', { name: 'Cookies on Herald' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: button }));

    expect(banner()).not.toBeInTheDocument();
    expect(window.localStorage.getItem(storageKeys.cookieConsent)).toBe(stored);

    first.unmount();
    renderApp('/privacy-policy');
    await screen.findByRole('heading', { name: 'Privacy Policy' });
    expect(banner()).not.toBeInTheDocument();
  });

  it('asks again when the stored value is not a valid choice', async () => {
    window.localStorage.setItem(storageKeys.cookieConsent, 'maybe');
    mockServer();
    renderApp('/login');
    expect(await screen.findByRole('region', { name: 'Cookies on Herald' })).toBeInTheDocument();
  });

  it('is not shown inside the authenticated shell', async () => {
    mockServer({ me: createMe() });
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Acme Studio Dashboard' });
    expect(banner()).not.toBeInTheDocument();
  });
});
