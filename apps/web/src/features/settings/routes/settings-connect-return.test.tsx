import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { createIntegration, integrationRoutes } from '@/testing/platform-fixtures';
import { createTestQueryClient, mockServer, renderApp } from '@/testing/render-app';
import { ConnectedPlatforms } from '../components/connected-platforms';

const PENDING_ID = '6f1c1d7e-0000-4000-8000-000000000001';
const pendingPath = `/organizations/org_1/integrations/pending/${PENDING_ID}`;
const NO_SUBSCRIPTION =
  'No active subscription found. Please subscribe to a plan to connect accounts.';

const pending = {
  id: PENDING_ID,
  platform: { id: 'plt_facebook', name: 'Facebook' },
  accounts: [
    { externalId: 'page_1', name: 'Acme Page', username: 'acme', pictureUrl: null },
    { externalId: 'page_2', name: 'Acme Jobs', username: null, pictureUrl: null },
    { externalId: 'page_3', name: 'Side Project', username: null, pictureUrl: null },
  ],
  expiresAt: '2026-03-01T10:15:00.000Z',
};

function renderReturn(search: string, routes = {}) {
  const server = mockServer({ me: createMe(), routes: { ...integrationRoutes(), ...routes } });
  const app = renderApp(`/settings?${search}`);
  return { ...app, server };
}

describe('/settings after a network sends the browser back', () => {
  it('confirms a connection, lists the account and cleans the URL', async () => {
    const account = createIntegration({ metadata: { name: 'Ada on X', username: 'ada_on_x' } });
    const { router } = renderReturn('connected=X', {
      'GET /organizations/org_1/integrations': ok({ platforms: [account] }),
    });

    expect(await screen.findByText('X connected successfully.')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(await screen.findByRole('listitem', { name: '@ada_on_x' })).toBeInTheDocument();
  });

  it('lets the user choose among the accounts one sign-in offers', async () => {
    const chosen = [
      createIntegration({ platform: pending.platform, metadata: { name: 'Acme Page' } }),
      createIntegration({ platform: pending.platform, metadata: { name: 'Side Project' } }),
    ];
    const { user, router, server } = renderReturn(`pick=${PENDING_ID}&platform=Facebook`, {
      [`GET ${pendingPath}`]: ok(pending),
      [`POST ${pendingPath}`]: ok({ platforms: chosen }),
    });

    const dialog = await screen.findByRole('dialog', { name: 'Choose Facebook accounts' });
    expect(router.state.location.search).toBe('');
    const boxes = await within(dialog).findAllByRole('checkbox');
    expect(boxes).toHaveLength(3);
    const connect = within(dialog).getByRole('button', { name: 'Connect selected' });
    expect(connect).toBeDisabled();

    await user.click(within(dialog).getByRole('checkbox', { name: /Acme Page/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /Side Project/ }));
    await user.click(connect);

    expect(
      await screen.findByText('2 Facebook accounts connected successfully.'),
    ).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      externalIds: ['page_1', 'page_3'],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const group = screen.getByRole('region', { name: 'Facebook accounts' });
    expect(within(group).getAllByRole('listitem')).toHaveLength(2);
  });

  it('shows a Page Herald cannot post to as not connectable, with the reason', async () => {
    const reason =
      "Your role on Acme Jobs does not let you create content (Facebook's CREATE_CONTENT task), so Herald cannot post there.";
    renderReturn(`pick=${PENDING_ID}&platform=Facebook`, {
      [`GET ${pendingPath}`]: ok({
        ...pending,
        accounts: pending.accounts.map((a) =>
          a.externalId === 'page_2' ? { ...a, unavailableReason: reason } : a,
        ),
      }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Choose Facebook accounts' });
    const jobs = await within(dialog).findByRole('checkbox', { name: /Acme Jobs/ });
    expect(jobs).toBeDisabled();
    expect(jobs).toHaveAccessibleDescription(`Not connectable: ${reason}`);
    expect(within(dialog).getByRole('checkbox', { name: /Acme Page/ })).toBeEnabled();
  });

  it('says so when the choice has expired', async () => {
    renderReturn(`pick=${PENDING_ID}&platform=Facebook`, {
      [`GET ${pendingPath}`]: fail(
        404,
        'NOT_FOUND',
        'This account choice has expired. Connect again.',
      ),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Choose Facebook accounts' });
    expect(
      await within(dialog).findByText('This account choice has expired. Connect again.'),
    ).toBeInTheDocument();
  });

  it('shows why connecting failed, with the way to a plan when one is needed', async () => {
    const { router, user } = renderReturn(
      new URLSearchParams({ connectError: NO_SUBSCRIPTION, platform: 'X' }).toString(),
    );

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`Could not connect X. ${NO_SUBSCRIPTION}`);
    expect(within(alert).getByRole('link', { name: 'View Plans' })).toHaveAttribute(
      'href',
      '/pricing',
    );
    expect(router.state.location.search).toBe('');

    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(NO_SUBSCRIPTION)).toBeNull();
  });

  it('shows other failures without the plan link', async () => {
    renderReturn(new URLSearchParams({ connectError: 'You denied access.' }).toString());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You denied access.');
    expect(within(alert).queryByRole('link')).toBeNull();
  });
});

describe('ConnectedPlatforms', () => {
  it('asks to select an organization when there is none', async () => {
    mockServer({ me: createMe({ organizationId: null }), routes: integrationRoutes() });
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <MemoryRouter>
          <ConnectedPlatforms orgId={null} orgName="your organization" />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Select an organization')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Continue with/ })).toBeNull();
  });
});
