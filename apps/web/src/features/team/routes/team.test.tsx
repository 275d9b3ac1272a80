import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';
import { createIntegration } from '@/testing/platform-fixtures';
import { createMember, defaultRoles, teamRoutes } from '@/testing/team-fixtures';

const admin = createMe({ user: { displayName: 'Ada Lovelace', email: 'ada@example.com' } });
const adminId = admin.member?.id ?? '';

const team = [
  createMember({
    id: adminId,
    email: 'ada@example.com',
    roleId: 'role_admin',
    role: { id: 'role_admin', name: 'Admin' },
    user: { id: 'usr_ada', displayName: 'Ada Lovelace', avatarUrl: null },
  }),
  createMember({
    email: 'grace@example.com',
    user: { id: 'usr_grace', displayName: 'Grace Hopper', avatarUrl: null },
  }),
  createMember({
    email: 'alan@example.com',
    roleId: 'role_cs',
    role: { id: 'role_cs', name: 'CustomerSupport' },
    user: { id: 'usr_alan', displayName: 'Alan Turing', avatarUrl: null },
  }),
  createMember({ email: 'invitee@example.com', status: 'PENDING', user: null, joinedAt: null }),
  createMember({ email: 'second@example.com', status: 'PENDING', user: null, joinedAt: null }),
  createMember({ email: 'gone@example.com', status: 'INACTIVE', user: null }),
];

async function renderTeam(me = admin, routes = {}) {
  const server = mockServer({ me, routes: { ...teamRoutes({ members: team }), ...routes } });
  const app = renderApp('/team');
  await screen.findByRole('list', { name: 'Members' });
  return { ...app, server };
}

const card = (name: string) => screen.getByRole('listitem', { name });

describe('/team', () => {
  it('counts members, active members, pending invites and roles from the data', async () => {
    await renderTeam();
    const stats = screen.getByRole('region', { name: 'Team statistics' });

    const value = (label: string) => within(stats).getByText(label).nextElementSibling;
    expect(value('Total Members')).toHaveTextContent('4');
    expect(value('Active Members')).toHaveTextContent('3');
    expect(value('Pending Invites')).toHaveTextContent('2');
    expect(value('Total Roles')).toHaveTextContent('4');
  });

  it('counts pending invitations apart from members', async () => {
    await renderTeam();
    expect(screen.getByText('4 members · 2 invited')).toBeInTheDocument();
  });

  it('shows built-in role names as words on the cards and in the role filter', async () => {
    await renderTeam(createMe({ permissions: ['post:create'] }));
    expect(within(card('Alan Turing')).getByText('Customer Support')).toBeInTheDocument();
    expect(within(card('Alan Turing')).queryByText('CustomerSupport')).not.toBeInTheDocument();
    const filter = screen.getByRole('combobox', { name: 'Filter by role' });
    expect(
      within(filter).getByRole('option', { name: 'Social Media Manager' }),
    ).toBeInTheDocument();
  });

  it('copies a fresh link for a pending invitation, and shows it on the card', async () => {
    const invitee = team[3]!;
    const url = 'http://localhost:3000/invite/accept?token=fresh';
    const { user, server } = await renderTeam(admin, {
      [`POST /organizations/org_1/invitations/${invitee.id}/link`]: ok({ inviteUrl: url }),
    });
    expect(
      within(card('Grace Hopper')).queryByRole('button', { name: /Copy invite link/ }),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: /Resend invitation email/ }),
    ).not.toBeInTheDocument();

    await user.click(
      within(card('invitee@example.com')).getByRole('button', {
        name: 'Copy invite link for invitee@example.com',
      }),
    );
    expect(
      await screen.findByText(
        'A new invite link for invitee@example.com was copied. The previous link no longer works.',
      ),
    ).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(url);
    expect(
      within(card('invitee@example.com')).getByLabelText('New invite link for invitee@example.com'),
    ).toHaveValue(url);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('offers Resend email only when the server can send email', async () => {
    const invitee = team[3]!;
    const server = mockServer({
      me: admin,
      routes: {
        ...teamRoutes({ members: team, invitationEmail: true }),
        [`POST /organizations/org_1/invitations/${invitee.id}/resend`]: ok({ emailSent: true }),
      },
    });
    const { user } = renderApp('/team');
    await screen.findByRole('list', { name: 'Members' });

    await user.click(
      within(card('invitee@example.com')).getByRole('button', {
        name: 'Resend invitation email to invitee@example.com',
      }),
    );
    expect(
      await screen.findByText('The invitation was emailed to invitee@example.com again'),
    ).toBeInTheDocument();
    expect(
      server.requests.some(
        (r) => r.method === 'POST' && r.path.endsWith(`/invitations/${invitee.id}/resend`),
      ),
    ).toBe(true);
  });

  it('shows each member with role, status and date; invitations read INVITED', async () => {
    await renderTeam();

    const grace = card('Grace Hopper');
    expect(within(grace).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(grace).getByText('ACTIVE')).toBeInTheDocument();
    expect(within(grace).getByText('Joined Feb 1, 2026')).toBeInTheDocument();

    const invitee = card('invitee@example.com');
    expect(within(invitee).getByText('INVITED')).toBeInTheDocument();
    expect(within(invitee).queryByText('PENDING')).not.toBeInTheDocument();
    expect(within(invitee).getByText('Invited Jan 30, 2026')).toBeInTheDocument();
  });

  it('filters members by search text and by role', async () => {
    const { user } = await renderTeam();

    await user.type(screen.getByRole('searchbox', { name: 'Search members' }), 'grace');
    expect(
      within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem'),
    ).toHaveLength(1);
    expect(card('Grace Hopper')).toBeInTheDocument();

    await user.clear(screen.getByRole('searchbox', { name: 'Search members' }));
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Filter by role' }),
      'Customer Support',
    );
    expect(
      within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem'),
    ).toHaveLength(1);
    expect(card('Alan Turing')).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search members' }), 'nobody');
    expect(screen.getByText('No members match your filters.')).toBeInTheDocument();
  });

  it('hides inviting, role management and removal from a member without those permissions', async () => {
    const creator = createMe({
      role: { id: 'role_cc', name: 'ContentCreator' },
      permissions: ['post:create', 'post:edit'],
    });
    const members = [
      ...team,
      createMember({
        id: creator.member?.id ?? '',
        user: { id: 'usr_me', displayName: 'Cleo Creator', avatarUrl: null },
      }),
    ];
    mockServer({ me: creator, routes: teamRoutes({ members }) });
    renderApp('/team');
    await screen.findByRole('list', { name: 'Members' });

    expect(screen.queryByRole('button', { name: /Invite Member/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Manage Roles/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: /^Role of/ })).not.toBeInTheDocument();
    expect(
      within(card('Cleo Creator')).getByRole('button', { name: 'Leave organization' }),
    ).toBeInTheDocument();
  });

  it('lets an admin change a member role', async () => {
    const { user, server } = await renderTeam(admin, {
      [`PUT /organizations/org_1/members/${team[1]?.id}`]: ok({
        member: { ...team[1], roleId: 'role_cs', role: { id: 'role_cs', name: 'CustomerSupport' } },
      }),
    });
    expect(
      screen.queryByRole('combobox', { name: 'Role of Ada Lovelace' }),
    ).not.toBeInTheDocument();

    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Role of Grace Hopper' }),
      'Customer Support',
    );

    expect(await screen.findByText('Grace Hopper is now Customer Support')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ roleId: 'role_cs' });
  });

  it('lets an admin limit a member to some accounts, and give them all back', async () => {
    const acme = createIntegration({ metadata: { username: 'acme' } });
    const globex = createIntegration({ metadata: { username: 'globex' } });
    const grace = team[1]!;
    const { user, server } = await renderTeam(admin, {
      'GET /organizations/org_1/integrations': ok({ platforms: [acme, globex] }),
      [`PUT /organizations/org_1/members/${grace.id}/accounts`]: ok({
        member: { ...grace, accountIds: [acme.id] },
      }),
    });
    // An Admin always reaches every account: nothing to limit on their card.
    expect(
      within(card('Ada Lovelace')).queryByRole('button', { name: /Edit accounts/ }),
    ).not.toBeInTheDocument();
    const graceCard = card('Grace Hopper');
    expect(within(graceCard).getByText('Accounts: All accounts')).toBeInTheDocument();

    await user.click(
      within(graceCard).getByRole('button', { name: 'Edit accounts of Grace Hopper' }),
    );
    await user.click(within(graceCard).getByRole('radio', { name: 'Only these' }));
    await user.click(within(graceCard).getByRole('checkbox', { name: '@acme on X' }));
    await user.click(within(graceCard).getByRole('button', { name: 'Save accounts' }));

    expect(
      await screen.findByText('Grace Hopper now works with the chosen accounts'),
    ).toBeInTheDocument();
    expect(server.requests.find((r) => r.path.endsWith('/accounts'))?.body).toEqual({
      integrationIds: [acme.id],
    });
  });

  it('removes a member after confirmation', async () => {
    const key = `DELETE /organizations/org_1/members/${team[2]?.id}`;
    const { user, server } = await renderTeam(admin, { [key]: ok({ message: 'Removed.' }) });

    await user.click(screen.getByRole('button', { name: 'Remove Alan Turing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(dialog).toHaveTextContent('Remove Alan Turing from Acme Studio?');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect(await screen.findByText('Alan Turing was removed from Acme Studio')).toBeInTheDocument();
    expect(server.count(key)).toBe(1);
  });

  it("shows the server's sentence when the last Admin tries to leave", async () => {
    const message = 'You are the last Admin of this organization. Make someone else Admin first.';
    const { user, router } = await renderTeam(admin, {
      [`DELETE /organizations/org_1/members/${adminId}`]: fail(409, 'CONFLICT', message),
    });

    await user.click(
      within(card('Ada Lovelace')).getByRole('button', { name: 'Leave organization' }),
    );
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }),
    );

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/team');
  });

  it('leaving the organization goes back to onboarding', async () => {
    let session = admin;
    const { user, router } = await renderTeam(admin, {
      'GET /auth/me': () => ok(session),
      [`DELETE /organizations/org_1/members/${adminId}`]: () => {
        session = createMe({ organizationId: null });
        return ok({ message: 'You left.' });
      },
    });

    await user.click(
      within(card('Ada Lovelace')).getByRole('button', { name: 'Leave organization' }),
    );
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }),
    );

    expect(await screen.findByText('You left Acme Studio')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding'));
  });

  it("says 'Failed to load team data' when the team cannot be read", async () => {
    mockServer({
      me: admin,
      routes: { ...teamRoutes(), 'GET /organizations/org_1/members': ok({ wrong: true }) },
    });
    renderApp('/team');

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load team data');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('lists roles in Manage Roles, with the Admin role locked', async () => {
    const { user } = await renderTeam(
      admin,
      teamRoutes({ members: team, roles: defaultRoles({ ContentCreator: 2 }) }),
    );

    await user.click(screen.getByRole('button', { name: 'Manage Roles' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage Roles' });
    expect(within(dialog).getByText('16 permissions · 0 members')).toBeInTheDocument();
    expect(within(dialog).getByText('2 permissions · 2 members')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Edit role Admin' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Delete role Admin' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Edit role Content Creator' })).toBeEnabled();
  });
});
