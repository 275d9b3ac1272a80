import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  backOfficeRoutes,
  createBackOffice,
  operatorSession,
  type BackOffice,
} from '@/testing/admin-fixtures';
import { fail } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

async function renderPlatforms(state: BackOffice = createBackOffice(), routes = {}) {
  const server = mockServer({
    me: operatorSession(),
    routes: { ...backOfficeRoutes(state), ...routes },
  });
  const app = renderApp('/admin/platforms');
  await screen.findByRole('heading', { name: 'Supported Platforms', level: 1 });
  await screen.findByRole('table', { name: 'Platforms' });
  return { ...app, server, state };
}

const table = () => screen.getByRole('table', { name: 'Platforms' });
const rowOf = (name: string) =>
  within(table())
    .getAllByRole('row')
    .find((row) => within(row).queryByRole('rowheader', { name }))!;

describe('/admin/platforms', () => {
  it('shows each network with its icon, a star for others, and its status', async () => {
    await renderPlatforms();
    expect(
      screen.getByText('Create, activate, or deactivate platforms. Only admins can toggle status.'),
    ).toBeInTheDocument();
    for (const name of ['Facebook', 'Instagram', 'LinkedIn', 'Threads', 'TikTok', 'X']) {
      expect(within(rowOf(name)).getByRole('img', { name: `${name} logo` })).toBeInTheDocument();
      expect(within(rowOf(name)).getByText('Active')).toBeInTheDocument();
      expect(within(rowOf(name)).getByRole('switch', { name: `${name} active` })).toBeChecked();
    }
    const pixelfed = rowOf('Pixelfed');
    expect(within(pixelfed).getByRole('img', { name: /Pixelfed \(no icon/ })).toBeInTheDocument();
    expect(within(pixelfed).getByText('Inactive')).toBeInTheDocument();
    expect(within(pixelfed).getByRole('switch', { name: 'Pixelfed active' })).not.toBeChecked();
  });

  it('filters the table from the header search', async () => {
    const { user } = await renderPlatforms();
    await user.type(screen.getByRole('searchbox', { name: 'Search the back-office' }), 'tik');
    expect(
      within(table())
        .getAllByRole('rowheader')
        .map((th) => th.textContent),
    ).toEqual(['TikTok']);
    await user.type(screen.getByRole('searchbox', { name: 'Search the back-office' }), 'zzz');
    expect(within(table()).getByText('No platforms found')).toBeInTheDocument();
  });

  it('asks before deactivating, then says so and shows the new status', async () => {
    const { user, server } = await renderPlatforms();
    await user.click(within(rowOf('X')).getByRole('switch', { name: 'X active' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Platform' });
    expect(dialog).toHaveTextContent('Are you sure you want to deactivate "X"?');

    // Cancel changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.count('PUT /platforms/plt_x/deactivate')).toBe(0);

    await user.click(within(rowOf('X')).getByRole('switch', { name: 'X active' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Deactivate Platform' })).getByRole(
        'button',
        { name: 'Deactivate' },
      ),
    );
    expect(await screen.findByText('Platform deactivated successfully!')).toBeInTheDocument();
    expect(server.count('PUT /platforms/plt_x/deactivate')).toBe(1);
    await waitFor(() =>
      expect(within(rowOf('X')).getByRole('switch', { name: 'X active' })).not.toBeChecked(),
    );
    expect(within(rowOf('X')).getByText('Inactive')).toBeInTheDocument();
  });

  it('activates an inactive platform, and says when it fails', async () => {
    const { user, server } = await renderPlatforms(createBackOffice(), {
      'PUT /platforms/plt_facebook/deactivate': { status: 200, body: { unexpected: true } },
    });
    await user.click(within(rowOf('Pixelfed')).getByRole('switch', { name: 'Pixelfed active' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activate Platform' });
    expect(dialog).toHaveTextContent('Are you sure you want to activate "Pixelfed"?');
    await user.click(within(dialog).getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText('Platform activated successfully!')).toBeInTheDocument();
    expect(server.count('PUT /platforms/plt_pixelfed/activate')).toBe(1);

    await user.click(within(rowOf('Facebook')).getByRole('switch', { name: 'Facebook active' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Deactivate Platform' })).getByRole(
        'button',
        { name: 'Deactivate' },
      ),
    );
    expect(await screen.findByText('Failed to deactivate platform.')).toBeInTheDocument();
  });

  it('checks the JSON first, then the name, and sends the trimmed name', async () => {
    const { user, server } = await renderPlatforms();
    await user.click(screen.getByRole('button', { name: 'New Platform' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Platform' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    const constraints = within(dialog).getByRole('textbox', { name: /Media Constraints/ });

    await user.type(constraints, '{{ "image": ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Media constraints must be valid JSON.')).toBeInTheDocument();
    expect(within(dialog).queryByText('Name is required.')).toBeNull();

    await user.clear(constraints);
    await user.type(name, '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Name is required.')).toBeInTheDocument();
    expect(server.count('POST /platforms')).toBe(0);

    await user.clear(name);
    await user.type(name, '  Bluesky  ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Platform created successfully!')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Bluesky',
      mediaConstraints: {},
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(table()).findByRole('rowheader', { name: 'Bluesky' })).toBeInTheDocument();
  });

  it("sends the parsed constraints, and shows the server's reason when it refuses", async () => {
    const { user, server } = await renderPlatforms(createBackOffice(), {
      'POST /platforms': fail(409, 'CONFLICT', 'A platform named X already exists.'),
    });
    await user.click(screen.getByRole('button', { name: 'New Platform' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Platform' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'X');
    await user.type(
      within(dialog).getByRole('textbox', { name: /Media Constraints/ }),
      '{{"image": {{"maxFileSize": 5}}',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('A platform named X already exists.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'X',
      mediaConstraints: { image: { maxFileSize: 5 } },
    });
    expect(screen.getByRole('dialog', { name: 'Create Platform' })).toBeInTheDocument();
  });

  it("says 'Failed to fetch platforms.' when the list cannot be read", async () => {
    await renderPlatforms(createBackOffice(), {
      'GET /platforms': { status: 200, body: { unexpected: true } },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch platforms.');
  });

  it('warns when active networks cannot fetch media from API_PUBLIC_URL, and not otherwise', async () => {
    const message =
      "Instagram, Threads fetch post media from Herald's media URLs under http://localhost:3000/api, but localhost is not reachable from the internet: posts with images or videos will fail there. Set API_PUBLIC_URL to the public https address of this server's API.";
    await renderPlatforms(
      createBackOffice({
        publicMediaUrl: {
          networks: ['Instagram', 'Threads'],
          apiPublicUrl: 'http://localhost:3000/api',
          problem: 'localhost is not reachable from the internet',
          message,
        },
      }),
    );
    const notice = await screen.findByRole('region', {
      name: 'Instagram, Threads cannot fetch post media from this server',
    });
    expect(notice).toHaveTextContent(message);
  });

  it('shows no media URL notice when the server finds nothing wrong', async () => {
    const { server } = await renderPlatforms();
    await waitFor(() => expect(server.count('GET /platforms/public-media-url')).toBe(1));
    expect(screen.queryByRole('region', { name: /cannot fetch post media/ })).toBeNull();
  });
});
