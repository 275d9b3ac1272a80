import { LOGO_MAX_BYTES } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { ok } from '@/testing/fake-server';
import { integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const LOGO_URL = 'https://api.example.com/media/org_1/brand-logo-1.png?exp=1&sig=s';

const organization = (branding: { logoUrl: string | null; color: string | null }) => ({
  id: 'org_1',
  name: 'Acme Studio',
  defaultTimeZone: null,
  requirePostApproval: false,
  postApprovalRoleIds: [],
  ownerUserId: null,
  branding,
  createdAt: '2026-01-10T09:00:00.000Z',
});

async function renderBranding(
  start: { logoUrl: string | null; color: string | null } = { logoUrl: null, color: null },
  session = createMe(),
) {
  // The fake keeps what was saved, as the server does.
  let saved = start;
  const answer = () => ok({ organization: organization(saved) });
  const server = mockServer({
    me: session,
    routes: {
      ...integrationRoutes(),
      'GET /organizations/org_1': () => answer(),
      'GET /organizations/org_1/report-schedules': ok({
        schedules: [],
        timeZone: 'UTC',
        email: { available: true, reason: null },
      }),
      'PUT /organizations/org_1/branding': (request) => {
        saved = { ...saved, color: (request.body as { color: string | null }).color };
        return answer();
      },
      'PUT /organizations/org_1/branding/logo': () => {
        saved = { ...saved, logoUrl: LOGO_URL };
        return answer();
      },
      'DELETE /organizations/org_1/branding/logo': () => {
        saved = { ...saved, logoUrl: null };
        return answer();
      },
    },
  });
  renderApp('/settings');
  return { server, user: userEvent.setup() };
}

const card = () => screen.findByRole('region', { name: 'Branding' });

describe('Settings → Branding', () => {
  it('uploads a logo as multipart and shows it', async () => {
    const { server, user } = await renderBranding();
    const branding = await card();
    expect(await within(branding).findByText('No logo yet')).toBeInTheDocument();
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', {
      type: 'image/png',
    });
    await user.upload(within(branding).getByLabelText('Upload logo'), file);
    const image = await within(branding).findByRole('img', { name: 'Acme Studio logo' });
    expect(image).toHaveAttribute('src', LOGO_URL);
    const sent = server.requests.find(
      (r) => r.method === 'PUT' && r.path === '/organizations/org_1/branding/logo',
    )!;
    expect(sent.body).toBeInstanceOf(FormData);
    expect(((sent.body as FormData).get('logo') as File).name).toBe('logo.png');
    expect(await screen.findByText('Logo saved.')).toBeInTheDocument();

    // Replaced and removed from the same card.
    expect(within(branding).getByLabelText('Replace logo')).toBeInTheDocument();
    await user.click(within(branding).getByRole('button', { name: 'Remove' }));
    expect(await within(branding).findByText('No logo yet')).toBeInTheDocument();
    expect(server.count('DELETE /organizations/org_1/branding/logo')).toBe(1);
  });

  it('refuses a file of another type, or too large, before sending it', async () => {
    const { server } = await renderBranding();
    const branding = await card();
    // The picker offers only the logo's types; a file dropped in anyway is checked.
    const user = userEvent.setup({ applyAccept: false });
    const input = await within(branding).findByLabelText('Upload logo');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp');
    await user.upload(input, new File(['GIF89a'], 'spin.gif', { type: 'image/gif' }));
    expect(within(branding).getByRole('alert')).toHaveTextContent(
      'The logo must be a PNG, JPEG or WebP image.',
    );
    const large = new File([new Uint8Array(LOGO_MAX_BYTES + 1)], 'huge.png', {
      type: 'image/png',
    });
    await user.upload(input, large);
    expect(within(branding).getByRole('alert')).toHaveTextContent(
      'The logo is too large: it can be at most 2 MB.',
    );
    expect(server.count('PUT /organizations/org_1/branding/logo')).toBe(0);
  });

  it('saves a hex colour and previews it with a readable text colour', async () => {
    const { server, user } = await renderBranding({ logoUrl: null, color: '#fde047' });
    const branding = await card();
    const preview = await within(branding).findByTestId('brand-preview');
    // A light yellow gets dark text.
    expect(preview).toHaveStyle({ backgroundColor: 'rgb(253, 224, 71)', color: 'rgb(15, 23, 42)' });
    const field = within(branding).getByLabelText('Hex code');
    expect(field).toHaveValue('#fde047');

    await user.clear(field);
    await user.type(field, 'blue');
    await user.click(within(branding).getByRole('button', { name: 'Save colour' }));
    expect(
      within(branding).getByText('Write the colour as a hex code such as #1d4ed8.'),
    ).toBeInTheDocument();
    expect(server.count('PUT /organizations/org_1/branding')).toBe(0);

    await user.clear(field);
    await user.type(field, '1D4ED8');
    // A deep blue gets white text, before it is even saved.
    expect(preview).toHaveStyle({
      backgroundColor: 'rgb(29, 78, 216)',
      color: 'rgb(255, 255, 255)',
    });
    await user.click(within(branding).getByRole('button', { name: 'Save colour' }));
    await waitFor(() => expect(server.count('PUT /organizations/org_1/branding')).toBe(1));
    expect(
      server.requests.find((r) => r.method === 'PUT' && r.path === '/organizations/org_1/branding')
        ?.body,
    ).toEqual({ color: '#1d4ed8' });
    expect(await screen.findByText('Brand colour saved.')).toBeInTheDocument();
  });

  it('is not shown to a member who cannot manage the organization', async () => {
    await renderBranding(undefined, createMe({ permissions: ['post:create', 'analytics:view'] }));
    await screen.findByRole('heading', { name: 'Account Settings' });
    expect(screen.queryByRole('region', { name: 'Branding' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Report emails' })).toBeNull();
  });
});
