import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const me = createMe({
  user: { id: 'usr_ada', displayName: 'Ada Lovelace', email: 'ada@example.com' },
});

async function renderSettings(routes = {}, session = me) {
  const server = mockServer({ me: session, routes: { ...integrationRoutes(), ...routes } });
  const app = renderApp('/settings');
  await screen.findByRole('heading', { name: 'Account Settings', level: 1 });
  const profile = screen.getByRole('region', { name: 'Profile' });
  return { ...app, server, profile };
}

describe('/settings profile', () => {
  it('shows who the user is, with initials, a read-only email and the saved values', async () => {
    const { profile } = await renderSettings();

    expect(within(profile).getByText('AL')).toBeInTheDocument();
    expect(within(profile).getByText('Ada Lovelace')).toBeInTheDocument();
    // The email is shown as text, not as a field that looks editable.
    expect(within(profile).queryByRole('textbox', { name: 'Email' })).not.toBeInTheDocument();
    expect(within(profile).getByRole('group', { name: 'Email' })).toHaveTextContent(
      'ada@example.com',
    );
    expect(within(profile).getByRole('textbox', { name: 'Display Name' })).toHaveValue(
      'Ada Lovelace',
    );
    const timezone = within(profile).getByRole('combobox', { name: 'Timezone' });
    expect(timezone).toHaveValue('Europe/London');
    expect(within(timezone).getByRole('option', { name: 'America/New York' })).toBeInTheDocument();
    expect(within(timezone).getByRole('option', { name: 'UTC' })).toBeInTheDocument();
  });

  it("takes the browser's time zone on first sign-in, and the user can still change it", async () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const first = createMe({ user: { id: 'usr_ada', displayName: 'Ada', timezone: null } });
    const { user, server, profile } = await renderSettings(
      {
        'PUT /users/me/default-timezone': ({ body }: { body: unknown }) =>
          ok({ user: { ...first.user, timezone: (body as { timezone: string }).timezone } }),
        'PUT /users/usr_ada': ok({ user: { ...first.user, timezone: 'Asia/Tokyo' } }),
      },
      first,
    );

    expect(server.requests.find((r) => r.path === '/users/me/default-timezone')?.body).toEqual({
      timezone: zone,
    });
    const timezone = within(profile).getByRole('combobox', { name: 'Timezone' });
    expect(timezone).toHaveValue(zone);

    await user.selectOptions(timezone, 'Asia/Tokyo');
    await user.click(within(profile).getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Settings saved successfully!')).toBeInTheDocument();
    expect(server.requests.find((r) => r.path === '/users/usr_ada')?.body).toEqual({
      displayName: 'Ada',
      timezone: 'Asia/Tokyo',
    });
  });

  it('does not send the browser zone when the user already has one', async () => {
    const { server } = await renderSettings();
    expect(server.count('PUT /users/me/default-timezone')).toBe(0);
  });

  it('shows the picture when the user has one', async () => {
    const withPicture = createMe({ user: { avatarUrl: 'https://cdn.example/ada.png' } });
    const { profile } = await renderSettings({}, withPicture);
    expect(profile.querySelector('img')).toHaveAttribute('src', 'https://cdn.example/ada.png');
  });

  it('asks to fill all fields when the display name is blank or no time zone is chosen', async () => {
    const noZone = createMe({ user: { id: 'usr_ada', timezone: null } });
    const { user, server, profile } = await renderSettings({}, noZone);
    const name = within(profile).getByRole('textbox', { name: 'Display Name' });

    await user.click(within(profile).getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Please fill all fields.')).toBeInTheDocument();

    await user.selectOptions(within(profile).getByRole('combobox', { name: 'Timezone' }), 'UTC');
    await user.clear(name);
    await user.type(name, '   ');
    await user.click(within(profile).getByRole('button', { name: 'Save Profile' }));
    expect(screen.getByText('Please fill all fields.')).toBeInTheDocument();
    expect(server.count('PUT /users/usr_ada')).toBe(0);
  });

  it('saves the trimmed name and the time zone, then reads the session again', async () => {
    const { user, server, profile } = await renderSettings({
      'PUT /users/usr_ada': ok({
        user: { ...me.user, displayName: 'Countess Ada', timezone: 'Asia/Tokyo' },
      }),
    });
    const meCalls = server.count('GET /auth/me');
    const name = within(profile).getByRole('textbox', { name: 'Display Name' });
    await user.clear(name);
    await user.type(name, '  Countess Ada  ');
    await user.selectOptions(
      within(profile).getByRole('combobox', { name: 'Timezone' }),
      'Asia/Tokyo',
    );
    await user.click(within(profile).getByRole('button', { name: 'Save Profile' }));

    expect(await screen.findByText('Settings saved successfully!')).toBeInTheDocument();
    const put = server.requests.find((r) => r.method === 'PUT');
    expect(put?.path).toBe('/users/usr_ada');
    expect(put?.body).toEqual({ displayName: 'Countess Ada', timezone: 'Asia/Tokyo' });
    await waitFor(() => expect(server.count('GET /auth/me')).toBe(meCalls + 1));
    expect(name).toHaveValue('Countess Ada');
  });

  it("shows the server's reason when saving fails, or the fallback", async () => {
    const { user, server, profile } = await renderSettings({
      'PUT /users/usr_ada': fail(400, 'VALIDATION_FAILED', 'Choose a time zone from the list.'),
    });
    const save = within(profile).getByRole('button', { name: 'Save Profile' });
    await user.click(save);
    expect(await screen.findByText('Choose a time zone from the list.')).toBeInTheDocument();

    // An answer the app cannot read has no sentence to show.
    server.on('PUT /users/usr_ada', ok({ unexpected: true }));
    await user.click(save);
    expect(
      await screen.findByText('Failed to save settings. Please try again.'),
    ).toBeInTheDocument();
  });

  it('says so when the browser cannot list time zones', async () => {
    vi.spyOn(Intl, 'supportedValuesOf').mockImplementation(() => {
      throw new RangeError('unsupported');
    });
    const { profile } = await renderSettings();

    expect(within(profile).getByText('Could not load timezone list.')).toBeInTheDocument();
    // The saved zone stays selectable, so the profile can still be saved.
    expect(within(profile).getByRole('combobox', { name: 'Timezone' })).toHaveValue(
      'Europe/London',
    );
  });
});
