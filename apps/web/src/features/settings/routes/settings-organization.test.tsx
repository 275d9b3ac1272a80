import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { ok } from '@/testing/fake-server';
import { integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const organization = (defaultTimeZone: string | null, requirePostApproval = false) => ({
  id: 'org_1',
  name: 'Acme Studio',
  defaultTimeZone,
  requirePostApproval,
  createdAt: '2026-01-10T09:00:00.000Z',
});

async function renderSettings(session = createMe()) {
  const server = mockServer({
    me: session,
    routes: {
      ...integrationRoutes(),
      'GET /organizations/org_1': ok({ organization: organization(null) }),
      'PATCH /organizations/org_1': (request) => {
        const body = request.body as {
          defaultTimeZone?: string | null;
          requirePostApproval?: boolean;
        };
        return ok({
          organization: organization(body.defaultTimeZone ?? null, body.requirePostApproval),
        });
      },
    },
  });
  const app = renderApp('/settings');
  await screen.findByRole('heading', { name: 'Account Settings', level: 1 });
  return { ...app, server };
}

describe('/settings organization default time zone', () => {
  it('lets an org admin choose the zone members without one see times in', async () => {
    const { user, server } = await renderSettings();
    const card = await screen.findByRole('region', { name: 'Organization' });
    const select = await within(card).findByRole('combobox', { name: 'Default time zone' });
    expect(select).toHaveValue('');
    const save = within(card).getByRole('button', { name: 'Save Organization' });
    expect(save).toBeDisabled();

    await user.selectOptions(select, 'Pacific/Auckland');
    await user.click(save);

    expect(await screen.findByText('Organization time zone saved.')).toBeInTheDocument();
    const patch = server.requests.find((r) => r.method === 'PATCH');
    expect(patch?.path).toBe('/organizations/org_1');
    expect(patch?.body).toEqual({ defaultTimeZone: 'Pacific/Auckland' });
    await waitFor(() => expect(select).toHaveValue('Pacific/Auckland'));
  });

  it('turns "Posts need approval" on and off, saved at once', async () => {
    const { user, server } = await renderSettings();
    const card = await screen.findByRole('region', { name: 'Organization' });
    const toggle = await within(card).findByRole('switch', {
      name: 'Posts need approval before they are scheduled',
    });
    expect(toggle).toHaveAttribute('aria-checked', 'false');

    await user.click(toggle);
    expect(
      await screen.findByText('Posts now need approval before they are scheduled.'),
    ).toBeInTheDocument();
    const patch = server.requests.find((r) => r.method === 'PATCH');
    expect(patch?.body).toEqual({ requirePostApproval: true });
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));

    await user.click(toggle);
    expect(await screen.findByText('Posts no longer need approval.')).toBeInTheDocument();
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'false'));
  });

  it('is not offered to a member who may not manage the organization', async () => {
    await renderSettings(
      createMe({ role: { id: 'role_cc', name: 'ContentCreator' }, permissions: ['post:create'] }),
    );
    expect(await screen.findByRole('region', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Organization' })).not.toBeInTheDocument();
  });
});
