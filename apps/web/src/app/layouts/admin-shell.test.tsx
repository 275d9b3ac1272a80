import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { backOfficeRoutes, createBackOffice, operatorSession } from '@/testing/admin-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

async function renderBackOffice(path = '/admin/plans') {
  mockServer({ me: operatorSession(), routes: backOfficeRoutes(createBackOffice()) });
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Plan Management', level: 1 });
  return app;
}

describe('back-office shell on phones', () => {
  it('opens every back-office page from a drawer, one under the other, and closes it on the way', async () => {
    const { user, router } = await renderBackOffice();

    await user.click(screen.getByRole('button', { name: 'Open navigation menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Back-office navigation' });
    const menu = within(drawer).getByRole('navigation', { name: 'Back-office menu' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'Users', 'Plans', 'Platforms', 'Network setup']);
    expect(within(menu).getByRole('link', { name: 'Plans' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await user.click(within(menu).getByRole('link', { name: 'Network setup' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/network-setup'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps the wide screen sidebar as the Back-office navigation, hidden on phones', async () => {
    await renderBackOffice();
    const sidebar = screen.getByRole('navigation', { name: 'Back-office' });
    expect(sidebar).toHaveClass('hidden', 'md:flex');
    expect(screen.getByRole('button', { name: 'Open navigation menu' })).toHaveClass('md:hidden');
  });
});
