import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';
import { createRole, defaultRoles, teamRoutes } from '@/testing/team-fixtures';

const roleUuid = '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';

async function openTeam(routes = {}) {
  const server = mockServer({ me: createMe(), routes: { ...teamRoutes(), ...routes } });
  const app = renderApp('/team');
  await screen.findByText('No members yet.');
  return { ...app, server };
}

describe('role modal', () => {
  it('explains what a role needs before saving anything', async () => {
    const { user, server } = await openTeam();

    await user.click(screen.getByRole('button', { name: 'Manage Roles' }));
    await user.click(await screen.findByRole('button', { name: 'Create New Role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Role' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Role' }));

    expect(within(dialog).getByText('Role name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('At least one permission is required')).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Role name and at least one permission are required',
    );
    expect(within(dialog).getByLabelText('Role name')).toHaveAttribute('aria-invalid', 'true');
    expect(server.count('POST /organizations/org_1/roles')).toBe(0);
  });

  it('creates a role with a trimmed name, its permissions and a color', async () => {
    const created = createRole({ id: roleUuid, name: 'Reviewer', permissions: ['post:edit'] });
    const { user, server } = await openTeam({
      'POST /organizations/org_1/roles': ok({ role: created }),
    });

    await user.click(screen.getByRole('button', { name: 'Manage Roles' }));
    await user.click(await screen.findByRole('button', { name: 'Create New Role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Role' });
    await user.type(within(dialog).getByLabelText('Role name'), '  Reviewer ');
    await user.type(within(dialog).getByLabelText('Description'), ' Checks posts ');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Edit Posts' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Rose' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Role' }));

    expect(await screen.findByText('Role "Reviewer" created')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Reviewer',
      description: 'Checks posts',
      permissionIds: ['post:edit'],
    });
    expect(await screen.findByRole('dialog', { name: 'Manage Roles' })).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem('herald.roleColors') ?? '{}')).toEqual({
      [roleUuid]: 'rose',
    });
  });

  it('edits a role starting from its current permissions', async () => {
    const roles = defaultRoles();
    const creator = roles.find((r) => r.name === 'ContentCreator');
    const { user, server } = await openTeam({
      ...teamRoutes({ roles }),
      'PUT /organizations/org_1/roles/role_cc': ok({ role: creator }),
    });

    await user.click(screen.getByRole('button', { name: 'Manage Roles' }));
    await user.click(await screen.findByRole('button', { name: 'Edit role Content Creator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Role' });
    expect(within(dialog).getByLabelText('Role name')).toHaveValue('ContentCreator');
    expect(within(dialog).getByRole('checkbox', { name: 'Create Posts' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Edit Posts' })).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Delete Posts' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Role "Content Creator" updated')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toMatchObject({
      permissionIds: ['post:create', 'post:edit', 'post:delete'],
    });
  });

  it('says why a role with members cannot be deleted', async () => {
    const { user } = await openTeam({
      'DELETE /organizations/org_1/roles/role_cs': fail(
        409,
        'CONFLICT',
        'Cannot delete role with assigned members',
      ),
    });

    await user.click(screen.getByRole('button', { name: 'Manage Roles' }));
    await user.click(await screen.findByRole('button', { name: 'Delete role Customer Support' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete role' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete role' }));

    expect(await screen.findByText('Cannot delete role with assigned members')).toBeInTheDocument();
  });
});

describe('invite modal', () => {
  it('checks the address and the role before sending', async () => {
    const { user, server } = await openTeam();

    await user.click(screen.getByRole('button', { name: 'Invite Member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite Member' });
    await user.type(within(dialog).getByLabelText('Email address'), 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));

    expect(within(dialog).getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(within(dialog).getByText('Please select a role')).toBeInTheDocument();
    expect(server.count('POST /member/invite/org_1')).toBe(0);
  });

  it("narrows the role's permissions and shows the invite link to copy", async () => {
    const inviteUrl = 'http://localhost/invite/accept?token=tok_123';
    const { user, server } = await openTeam({
      'POST /member/invite/org_1': ok({
        member: {
          id: 'mem_new',
          email: 'teammate@example.com',
          status: 'PENDING',
          roleId: 'role_cc',
        },
        inviteUrl,
        emailSent: false,
      }),
    });

    await user.click(screen.getByRole('button', { name: 'Invite Member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite Member' });
    await user.type(within(dialog).getByLabelText('Email address'), 'Teammate@Example.com');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'Content Creator');
    expect(within(dialog).getByRole('checkbox', { name: 'Create Posts' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Manage Organization' })).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Edit Posts' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));

    const done = await screen.findByRole('dialog', { name: 'Invitation created' });
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      email: 'teammate@example.com',
      roleId: 'role_cc',
      permissions: ['post:create'],
    });
    expect(within(done).getByLabelText('Invite link for teammate@example.com')).toHaveValue(
      inviteUrl,
    );
    await user.click(
      within(done).getByRole('button', { name: 'Copy invite link for teammate@example.com' }),
    );
    expect(await navigator.clipboard.readText()).toBe(inviteUrl);
    expect(
      await screen.findByText('Invite link for teammate@example.com copied'),
    ).toBeInTheDocument();
  });

  it("shows the server's message when the person is already on the team", async () => {
    const { user } = await openTeam({
      'POST /member/invite/org_1': fail(409, 'CONFLICT', 'grace@example.com is already a member.'),
    });

    await user.click(screen.getByRole('button', { name: 'Invite Member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite Member' });
    await user.type(within(dialog).getByLabelText('Email address'), 'grace@example.com');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'Customer Support');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));

    expect(await screen.findByText('grace@example.com is already a member.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Invite Member' })).toBeInTheDocument();
  });

  it('confirms and closes when Herald emailed the invitation', async () => {
    const { user } = await openTeam({
      'POST /member/invite/org_1': ok({
        member: { id: 'mem_new', email: 'sam@example.com', status: 'PENDING', roleId: 'role_cs' },
        inviteUrl: null,
        emailSent: true,
      }),
    });

    await user.click(screen.getByRole('button', { name: 'Invite Member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite Member' });
    await user.type(within(dialog).getByLabelText('Email address'), 'sam@example.com');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'Customer Support');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));

    expect(
      await screen.findByText('Invite sent to sam@example.com successfully!'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
