import type { ApiKey } from '@herald/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const PATH = '/organizations/org_1/api-keys';
const SECRET = `hrld_1a2b3c4d_${'s'.repeat(43)}`;

const zapier: ApiKey = {
  id: 'key_1',
  name: 'Zapier',
  prefix: 'hrld_99aa88bb',
  permissions: ['post:create', 'analytics:view'],
  createdBy: { id: 'user_1', email: 'ada@example.com' },
  createdAt: '2026-11-01T10:00:00.000Z',
  lastUsedAt: null,
  expiresAt: null,
};

async function renderKeys(permissions?: string[]) {
  let keys: ApiKey[] = [zapier];
  const server = mockServer({
    me: createMe(permissions ? { permissions } : {}),
    routes: {
      ...integrationRoutes(),
      [`GET ${PATH}`]: () => ok({ apiKeys: keys }),
      [`POST ${PATH}`]: ({ body }) => {
        const input = body as { name: string; permissions: string[]; expiresAt: string | null };
        if (input.permissions.includes('billing:edit'))
          return fail(403, 'FORBIDDEN', 'You cannot grant permissions you do not have yourself.');
        const apiKey = { ...zapier, id: 'key_2', name: input.name, prefix: 'hrld_1a2b3c4d' };
        keys = [apiKey, ...keys];
        return { status: 201, body: { status: 'success', data: { key: SECRET, apiKey } } };
      },
      [`DELETE ${PATH}/key_1`]: () => {
        keys = keys.filter((k) => k.id !== 'key_1');
        return ok({ message: 'API key revoked.' });
      },
    },
  });
  const app = renderApp('/settings');
  const card = await screen.findByRole('region', { name: 'API keys' });
  await within(card).findByRole('list', { name: 'API keys' });
  return { ...app, server, card };
}

describe('/settings API keys', () => {
  it('lists keys by name, prefix, permissions, creator and use', async () => {
    const { card } = await renderKeys();
    const list = within(card).getByRole('list', { name: 'API keys' });
    expect(list).toHaveTextContent('Zapier');
    expect(list).toHaveTextContent('hrld_99aa88bb_…');
    expect(list).toHaveTextContent('Create Posts, View Analytics');
    expect(list).toHaveTextContent('Created by ada@example.com');
    expect(list).toHaveTextContent('Last used never');
    expect(list).toHaveTextContent('No expiry');
    expect(card).toHaveTextContent(`${window.location.origin}/api/mcp`);
  });

  it('offers only the permissions the member holds', async () => {
    const { card } = await renderKeys(['org:manage', 'post:create']);
    const boxes = within(card).getAllByRole('checkbox');
    expect(boxes.map((b) => b.closest('label')?.textContent)).toEqual([
      'Create Posts',
      'Manage Organization',
    ]);
  });

  it('creates a key and shows it once, with a warning and Done to hide it', async () => {
    const { user, server, card } = await renderKeys();
    await user.click(within(card).getByRole('button', { name: 'Create Key' }));
    expect(within(card).getByRole('alert')).toHaveTextContent('Give the key a name');
    await user.type(within(card).getByLabelText('Key name'), 'n8n');
    await user.click(within(card).getByRole('button', { name: 'Create Key' }));
    expect(within(card).getByRole('alert')).toHaveTextContent('Choose at least one permission.');
    await user.click(within(card).getByRole('checkbox', { name: 'Create Posts' }));
    await user.type(within(card).getByLabelText('Expires on (optional)'), '2027-03-31');
    await user.click(within(card).getByRole('button', { name: 'Create Key' }));
    expect(await within(card).findByDisplayValue(SECRET)).toBeInTheDocument();
    expect(card).toHaveTextContent('it will not be shown again');
    const sent = server.requests.find((r) => r.method === 'POST' && r.path === PATH)?.body as {
      name: string;
      permissions: string[];
      expiresAt: string;
    };
    expect(sent.name).toBe('n8n');
    expect(sent.permissions).toEqual(['post:create']);
    expect(new Date(sent.expiresAt).getDate()).toBe(31);
    await user.click(within(card).getByRole('button', { name: 'Done' }));
    expect(within(card).queryByDisplayValue(SECRET)).not.toBeInTheDocument();
  });

  it('shows the server’s sentence when it refuses a key', async () => {
    const { user, card } = await renderKeys();
    await user.type(within(card).getByLabelText('Key name'), 'Billing bot');
    await user.click(within(card).getByRole('checkbox', { name: 'Edit Billing' }));
    await user.click(within(card).getByRole('button', { name: 'Create Key' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'You cannot grant permissions you do not have yourself.',
    );
  });

  it('revokes a key after confirming', async () => {
    const { user, server, card } = await renderKeys();
    await user.click(within(card).getByRole('button', { name: 'Revoke Zapier' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke “Zapier”?' });
    expect(dialog).toHaveTextContent('stops working at once');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke Key' }));
    expect(await screen.findByText(/API key revoked/)).toBeInTheDocument();
    expect(server.count(`DELETE ${PATH}/key_1`)).toBe(1);
    expect(await within(card).findByText('No API keys yet.')).toBeInTheDocument();
  });
});
