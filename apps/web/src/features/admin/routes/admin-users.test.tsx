import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  backOfficeRoutes,
  createBackOffice,
  operatorSession,
  type BackOffice,
} from '@/testing/admin-fixtures';
import { createUser } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

async function renderUsers(state: BackOffice = createBackOffice(), routes = {}) {
  const server = mockServer({
    me: operatorSession(),
    routes: { ...backOfficeRoutes(state), ...routes },
  });
  const app = renderApp('/admin/users');
  await screen.findByRole('heading', { name: 'User Management', level: 1 });
  await screen.findByRole('table', { name: 'Users' });
  return { ...app, server, state };
}

const table = () => screen.getByRole('table', { name: 'Users' });
const rowOf = (text: string) =>
  within(table())
    .getAllByRole('row')
    .find((row) => row.textContent?.includes(text))!;

describe('/admin/users', () => {
  it('lists users with their picture or initial, name or "No name", email and date', async () => {
    await renderUsers();
    expect(screen.getByText('View and manage all users in the system.')).toBeInTheDocument();
    await within(table()).findByText('ada@example.com');
    expect(within(rowOf('ada@example.com')).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(rowOf('ada@example.com')).getByText('AL')).toBeInTheDocument();
    expect(within(rowOf('ada@example.com')).getByText('Jan 5, 2026')).toBeInTheDocument();
    expect(within(rowOf('anon@example.com')).getByText('No name')).toBeInTheDocument();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['User', 'Email', 'Created At', 'Actions']);
  });

  it('searches on the server from the page box and from the header box', async () => {
    const { user, server } = await renderUsers();
    await within(table()).findByText('ada@example.com');

    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'LOVE');
    await waitFor(() => expect(within(table()).queryByText('anon@example.com')).toBeNull());
    expect(within(table()).getByText('ada@example.com')).toBeInTheDocument();
    expect(server.requests.at(-1)?.query.get('search')).toBe('LOVE');
    // The header box shows and edits the same search.
    const header = screen.getByRole('searchbox', { name: 'Search the back-office' });
    expect(header).toHaveValue('LOVE');

    await user.clear(header);
    await user.type(header, 'nobody');
    expect(await within(table()).findByText('No users found')).toBeInTheDocument();
  });

  it('pages on the server, ten a page, with real Previous and Next', async () => {
    const state = createBackOffice({
      users: Array.from({ length: 13 }, (_, i) =>
        createUser({ id: `usr_${i}`, email: `person${i}@example.com`, displayName: `P ${i}` }),
      ),
    });
    const { user, server } = await renderUsers(state);
    await within(table()).findByText('person0@example.com');
    expect(within(table()).getAllByRole('row')).toHaveLength(11);
    const pager = screen.getByRole('navigation', { name: 'Users pages' });
    expect(within(pager).getByText('Page 1 of 2')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(await within(table()).findByText('person12@example.com')).toBeInTheDocument();
    expect(within(pager).getByText('Page 2 of 2')).toBeInTheDocument();
    expect(within(pager).getByText('Showing 11–13 of 13')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    const last = server.requests.filter((r) => r.path === '/users').at(-1)!;
    expect([last.query.get('page'), last.query.get('pageSize')]).toEqual(['2', '10']);
  });

  it('shows a user, and Cancel puts the loaded values back', async () => {
    const { user, server } = await renderUsers();
    await within(table()).findByText('ada@example.com');
    await user.click(within(rowOf('ada@example.com')).getByRole('button', { name: /View/ }));
    const dialog = await screen.findByRole('dialog', { name: 'User Details' });
    expect(await within(dialog).findByText('Europe/London')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    const name = within(dialog).getByRole('textbox', { name: 'Display Name' });
    await user.clear(name);
    await user.type(name, 'Someone Else');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).getByText('Ada Lovelace', { selector: 'dd' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    expect(within(dialog).getByRole('textbox', { name: 'Display Name' })).toHaveValue(
      'Ada Lovelace',
    );
    expect(server.count('PUT /users/usr_ada')).toBe(0);
  });

  it('saves only the display name, picture and time zone, then refreshes the list', async () => {
    const { user, server } = await renderUsers();
    await within(table()).findByText('ada@example.com');
    await user.click(within(rowOf('ada@example.com')).getByRole('button', { name: /View/ }));
    const dialog = await screen.findByRole('dialog', { name: 'User Details' });
    await user.click(await within(dialog).findByRole('button', { name: 'Edit' }));
    const listCalls = server.count('GET /users');

    const name = within(dialog).getByRole('textbox', { name: 'Display Name' });
    await user.clear(name);
    await user.type(name, '  Countess Ada  ');
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Avatar URL' }),
      'https://cdn.example/ada.png',
    );
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Timezone' }), 'UTC');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('User updated successfully!')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      displayName: 'Countess Ada',
      avatarUrl: 'https://cdn.example/ada.png',
      timezone: 'UTC',
    });
    // Back to the read view, and the table shows the new name.
    expect(await within(dialog).findByRole('button', { name: 'Edit' })).toBeInTheDocument();
    await waitFor(() => expect(server.count('GET /users')).toBeGreaterThan(listCalls));
    await user.keyboard('{Escape}');
    expect(await within(table()).findByText('Countess Ada')).toBeInTheDocument();
  });

  it('leaves an unset time zone unset, and checks the name and picture before sending', async () => {
    const { user, server } = await renderUsers();
    await within(table()).findByText('anon@example.com');
    await user.click(within(rowOf('anon@example.com')).getByRole('button', { name: /View/ }));
    const dialog = await screen.findByRole('dialog', { name: 'User Details' });
    await user.click(await within(dialog).findByRole('button', { name: 'Edit' }));

    await user.type(within(dialog).getByRole('textbox', { name: 'Avatar URL' }), 'not a link');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Display name is required.')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Enter a web address starting with http:// or https://.'),
    ).toBeInTheDocument();
    expect(server.count('PUT /users/usr_anon')).toBe(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Display Name' }), 'Anon');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Avatar URL' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('User updated successfully!');
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      displayName: 'Anon',
      avatarUrl: null,
    });
  });

  it("shows the server's reason when saving or loading fails", async () => {
    const { user } = await renderUsers(createBackOffice(), {
      'PUT /users/usr_ada': fail(400, 'VALIDATION_FAILED', 'Choose a time zone from the list.'),
      'GET /users/usr_anon': fail(500, 'INTERNAL', 'Something went wrong on our side.'),
    });
    await within(table()).findByText('ada@example.com');
    await user.click(within(rowOf('ada@example.com')).getByRole('button', { name: /View/ }));
    let dialog = await screen.findByRole('dialog', { name: 'User Details' });
    await user.click(await within(dialog).findByRole('button', { name: 'Edit' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Choose a time zone from the list.')).toBeInTheDocument();
    await user.keyboard('{Escape}');

    await user.click(within(rowOf('anon@example.com')).getByRole('button', { name: /View/ }));
    dialog = await screen.findByRole('dialog', { name: 'User Details' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Something went wrong on our side.',
    );
  });

  it("says 'Failed to fetch users.' when the list cannot be read", async () => {
    // An answer the app cannot read carries no sentence of its own.
    await renderUsers(createBackOffice(), { 'GET /users': ok({ unexpected: true }) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch users.');
  });
});
