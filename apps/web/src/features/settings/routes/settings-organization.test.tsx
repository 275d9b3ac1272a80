import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { ok, type FakeReply, type Handler } from '@/testing/fake-server';
import { integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';
import { createMember, defaultRoles, teamRoutes } from '@/testing/team-fixtures';

const organization = (
  defaultTimeZone: string | null,
  requirePostApproval = false,
  postApprovalRoleIds: string[] = [],
) => ({
  id: 'org_1',
  name: 'Acme Studio',
  defaultTimeZone,
  requirePostApproval,
  postApprovalRoleIds,
  ownerUserId: null as string | null,
  branding: { logoUrl: null, color: null },
  createdAt: '2026-01-10T09:00:00.000Z',
});

async function renderSettings(
  session = createMe(),
  start = organization(null),
  extraRoutes: Record<string, Handler | FakeReply> = {},
) {
  // The fake keeps what was saved, as the server does.
  let saved = start;
  const server = mockServer({
    me: session,
    routes: {
      ...integrationRoutes(),
      ...extraRoutes,
      'GET /organizations/org_1': () => ok({ organization: saved }),
      'GET /organizations/org_1/roles': { status: 200, body: defaultRoles() },
      'PATCH /organizations/org_1': (request) => {
        const body = request.body as {
          defaultTimeZone?: string | null;
          requirePostApproval?: boolean;
          postApprovalRoleIds?: string[];
        };
        saved = organization(
          body.defaultTimeZone !== undefined ? body.defaultTimeZone : saved.defaultTimeZone,
          body.requirePostApproval ?? saved.requirePostApproval,
          body.postApprovalRoleIds ?? saved.postApprovalRoleIds,
        );
        return ok({ organization: saved });
      },
    },
  });
  const app = renderApp('/settings');
  await screen.findByRole('heading', { name: 'Account Settings', level: 1 });
  return { ...app, server };
}

describe('/settings organization time zone', () => {
  it('lets an org admin choose the zone every member sees times in, explaining the rule', async () => {
    const { user, server } = await renderSettings();
    const card = await screen.findByRole('region', { name: 'Organization' });
    const select = await within(card).findByRole('combobox', { name: 'Organization time zone' });
    expect(select).toHaveValue('');
    expect(within(select).getByRole('option', { selected: true })).toHaveTextContent(
      'None: each member sees their own time zone',
    );
    expect(select).toHaveAccessibleDescription(
      /When set, every member sees and schedules times in this zone, whatever their own/,
    );
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

  it('shows the roles as checkboxes only while approval is on, saving each choice', async () => {
    const { user, server } = await renderSettings();
    const card = await screen.findByRole('region', { name: 'Organization' });
    const toggle = await within(card).findByRole('switch', {
      name: 'Posts need approval before they are scheduled',
    });
    expect(within(card).queryByRole('group', { name: 'Only for these roles' })).toBeNull();
    expect(server.count('GET /organizations/org_1/roles')).toBe(0);

    await user.click(toggle);
    const group = await within(card).findByRole('group', { name: 'Only for these roles' });
    expect(group).toHaveAccessibleDescription(
      'None chosen: every member without the Approve Posts permission submits.',
    );
    const boxes = await within(group).findAllByRole('checkbox');
    // Every role but Admin (which always approves), none ticked.
    expect(boxes.map((box) => box.closest('label')?.textContent)).toEqual([
      'Social Media Manager',
      'Content Creator',
      'Customer Support',
    ]);
    expect(boxes.every((box) => !(box as HTMLInputElement).checked)).toBe(true);

    await user.click(within(group).getByRole('checkbox', { name: 'Content Creator' }));
    expect(await screen.findByText('Approval roles saved.')).toBeInTheDocument();
    const patches = server.requests.filter((r) => r.method === 'PATCH');
    expect(patches.at(-1)?.body).toEqual({ postApprovalRoleIds: ['role_cc'] });
    await waitFor(() =>
      expect(within(group).getByRole('checkbox', { name: 'Content Creator' })).toBeChecked(),
    );
    expect(group).toHaveAccessibleDescription(
      'Members of other roles schedule their posts directly.',
    );

    await user.click(within(group).getByRole('checkbox', { name: 'Customer Support' }));
    await waitFor(() =>
      expect(server.requests.filter((r) => r.method === 'PATCH').at(-1)?.body).toEqual({
        postApprovalRoleIds: ['role_cc', 'role_cs'],
      }),
    );
    await user.click(within(group).getByRole('checkbox', { name: 'Content Creator' }));
    await waitFor(() =>
      expect(server.requests.filter((r) => r.method === 'PATCH').at(-1)?.body).toEqual({
        postApprovalRoleIds: ['role_cs'],
      }),
    );

    await user.click(toggle);
    await waitFor(() =>
      expect(within(card).queryByRole('group', { name: 'Only for these roles' })).toBeNull(),
    );
  });

  it('ticks the roles already chosen', async () => {
    await renderSettings(createMe(), organization(null, true, ['role_smm']));
    const card = await screen.findByRole('region', { name: 'Organization' });
    const group = await within(card).findByRole('group', { name: 'Only for these roles' });
    expect(
      await within(group).findByRole('checkbox', { name: 'Social Media Manager' }),
    ).toBeChecked();
    expect(within(group).getByRole('checkbox', { name: 'Content Creator' })).not.toBeChecked();
  });

  it('is not offered to a member who may not manage the organization', async () => {
    await renderSettings(
      createMe({ role: { id: 'role_cc', name: 'ContentCreator' }, permissions: ['post:create'] }),
    );
    expect(await screen.findByRole('region', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Organization' })).not.toBeInTheDocument();
  });
});

describe('/settings organization ownership', () => {
  const me = createMe({ user: { id: 'usr_owner', displayName: 'Olive Owner' } });
  const heir = createMember({
    email: 'hana@example.com',
    roleId: 'role_admin',
    role: { id: 'role_admin', name: 'Admin' },
    user: { id: 'usr_hana', displayName: 'Hana Heir', avatarUrl: null },
  });
  const writer = createMember({ email: 'wes@example.com' });
  const ownerRow = createMember({
    email: 'olive@example.com',
    roleId: 'role_admin',
    role: { id: 'role_admin', name: 'Admin' },
    user: { id: 'usr_owner', displayName: 'Olive Owner', avatarUrl: null },
  });
  const members = teamRoutes({ members: [ownerRow, heir, writer] });

  it('lets the owner hand the organization to another Admin, after confirming', async () => {
    const start = { ...organization(null), ownerUserId: 'usr_owner' };
    const { user, server } = await renderSettings(me, start, {
      ...members,
      'POST /organizations/org_1/transfer-ownership': (request) =>
        ok({
          organization: {
            ...start,
            ownerUserId:
              (request.body as { memberId: string }).memberId === heir.id ? 'usr_hana' : 'x',
          },
        }),
    });
    const card = await screen.findByRole('region', { name: 'Organization' });
    const select = await within(card).findByRole('combobox', { name: 'New owner' });
    // Only the other active Admins are offered.
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Choose an Admin', 'Hana Heir (hana@example.com)']),
    );
    const button = within(card).getByRole('button', { name: 'Transfer ownership' });
    expect(button).toBeDisabled();
    await user.selectOptions(select, heir.id);
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Transfer ownership?' });
    expect(dialog).toHaveTextContent(
      'Hana Heir becomes the owner of Acme Studio. Your plan stops covering it',
    );
    expect(server.requests.some((r) => r.path.endsWith('/transfer-ownership'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Transfer ownership' }));
    await waitFor(() =>
      expect(
        server.requests.find((r) => r.method === 'POST' && r.path.endsWith('/transfer-ownership'))
          ?.body,
      ).toEqual({ memberId: heir.id }),
    );
    expect(await screen.findByText('Acme Studio now belongs to Hana Heir.')).toBeInTheDocument();
    // Now an Admin like the others: the owner is named and the form is gone.
    expect(
      await within(card).findByText(
        /Acme Studio belongs to Hana Heir\. Only its owner can hand it on\./,
      ),
    ).toBeInTheDocument();
    expect(within(card).queryByRole('combobox', { name: 'New owner' })).toBeNull();
  });

  it('tells an owner with no other Admin how to get one', async () => {
    await renderSettings(
      me,
      { ...organization(null), ownerUserId: 'usr_owner' },
      {
        ...teamRoutes({ members: [ownerRow, writer] }),
      },
    );
    const card = await screen.findByRole('region', { name: 'Organization' });
    expect(
      await within(card).findByText(/first give the person who takes it over the Admin role/),
    ).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Transfer ownership' })).toBeNull();
  });
});
