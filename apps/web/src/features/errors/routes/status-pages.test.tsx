import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockServer, renderApp } from '@/testing/render-app';

describe('status pages', () => {
  it('/401 says Unauthorized, with Go Back and Return Home', async () => {
    mockServer();
    const { user, router } = renderApp(['/privacy-policy', '/401']);

    expect(await screen.findByRole('heading', { name: 'Unauthorized' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');

    await user.click(screen.getByRole('button', { name: 'Go Back' }));
    expect(await screen.findByRole('heading', { name: 'Privacy Policy' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/privacy-policy');
  });

  it('/403 says Access Forbidden', async () => {
    mockServer();
    renderApp('/403');

    expect(await screen.findByRole('heading', { name: 'Access Forbidden' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
  });

  it.each(['/404', '/no/such/page', '/admin/nothing-here'])(
    '%s says Page Not Found, with Go Home and the support address',
    async (path) => {
      mockServer();
      renderApp(path);

      expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
      const support = screen.getAllByRole('link', { name: 'support@herald.example' });
      expect(support[0]).toHaveAttribute('href', 'mailto:support@herald.example');
    },
  );
});
