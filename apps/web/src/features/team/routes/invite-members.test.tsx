import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok, type FakeRequest } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';
import { teamRoutes } from '@/testing/team-fixtures';

const invited = (request: FakeRequest, inviteUrl: string | null = null) => {
  const { email } = request.body as { email: string };
  return ok({
    member: { id: `mem_${email}`, email, status: 'PENDING', roleId: 'role_smm' },
    inviteUrl,
    emailSent: inviteUrl === null,
  });
};

function renderInvite({ me = createMe(), routes = {} } = {}) {
  const server = mockServer({ me, routes: { ...teamRoutes(), ...routes } });
  const app = renderApp('/org/org_1/invite-members');
  return { ...app, server };
}

const block = (n: number) => screen.getByRole('group', { name: `Member ${n}` });
const sendButton = () => screen.getByRole('button', { name: 'Send invites' });

describe('/org/:orgId/invite-members', () => {
  it("starts with SocialMediaManager and only that role's permissions can be ticked", async () => {
    renderInvite();
    const first = await screen.findByRole('group', { name: 'Member 1' });

    expect(within(first).getByLabelText('Role')).toHaveDisplayValue('Social Media Manager');
    for (const label of [
      'Create Posts',
      'Edit Posts',
      'Approve Posts',
      'View Messages',
      'Send Messages',
    ]) {
      expect(within(first).getByRole('checkbox', { name: label })).toBeChecked();
    }
    expect(within(first).getByRole('checkbox', { name: 'Manage Organization' })).toBeDisabled();
    expect(within(first).getByRole('checkbox', { name: 'Manage Organization' })).not.toBeChecked();
  });

  it("resets the permissions to the new role's defaults when the role changes", async () => {
    const { user } = renderInvite();
    const first = await screen.findByRole('group', { name: 'Member 1' });

    await user.click(within(first).getByRole('checkbox', { name: 'Edit Posts' }));
    expect(within(first).getByRole('checkbox', { name: 'Edit Posts' })).not.toBeChecked();
    await user.selectOptions(within(first).getByLabelText('Role'), 'Customer Support');

    expect(within(first).getByRole('checkbox', { name: 'View Messages' })).toBeChecked();
    expect(within(first).getByRole('checkbox', { name: 'Send Messages' })).toBeChecked();
    expect(within(first).getByRole('checkbox', { name: 'Create Posts' })).toBeDisabled();
    expect(within(first).getByRole('checkbox', { name: 'Create Posts' })).not.toBeChecked();

    await user.selectOptions(within(first).getByLabelText('Role'), 'Social Media Manager');
    expect(within(first).getByRole('checkbox', { name: 'Edit Posts' })).toBeChecked();
  });

  it('disables Send invites until every email is filled, and offers Remove member only with two', async () => {
    const { user } = renderInvite();
    await screen.findByRole('group', { name: 'Member 1' });

    expect(sendButton()).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Remove member' })).not.toBeInTheDocument();
    await user.type(within(block(1)).getByLabelText('Email address'), 'a@example.com');
    expect(sendButton()).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Add another member' }));
    expect(sendButton()).toBeDisabled();
    expect(screen.getAllByRole('button', { name: 'Remove member' })).toHaveLength(2);

    await user.click(within(block(2)).getByRole('button', { name: 'Remove member' }));
    expect(screen.queryByRole('group', { name: 'Member 2' })).not.toBeInTheDocument();
    expect(sendButton()).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/team');
  });

  it('sends one invitation per block, then returns to the team after 1.5 s', async () => {
    const { user, server, router } = renderInvite({
      routes: { 'POST /member/invite/org_1': (request: FakeRequest) => invited(request) },
    });
    await screen.findByRole('group', { name: 'Member 1' });
    await user.type(within(block(1)).getByLabelText('Email address'), 'a@example.com');
    await user.click(screen.getByRole('button', { name: 'Add another member' }));
    await user.type(within(block(2)).getByLabelText('Email address'), 'b@example.com');
    await user.selectOptions(within(block(2)).getByLabelText('Role'), 'Content Creator');
    await user.click(within(block(2)).getByRole('checkbox', { name: 'Edit Posts' }));
    await user.click(sendButton());

    expect(
      await screen.findByText('Invite sent to a@example.com successfully!'),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('Invite sent to b@example.com successfully!'),
    ).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      {
        email: 'a@example.com',
        roleId: 'role_smm',
        permissions: [
          'post:create',
          'post:edit',
          'post:approve',
          'dm:send',
          'dm:view',
          'analytics:view',
        ],
      },
      { email: 'b@example.com', roleId: 'role_cc', permissions: ['post:create'] },
    ]);
    expect(router.state.location.pathname).toBe('/org/org_1/invite-members');
    expect(
      await screen.findByRole('heading', { name: 'Team Management' }, { timeout: 3000 }),
    ).toBeInTheDocument();
  });

  it('keeps the invitations that failed in the form and says why', async () => {
    const { user, router } = renderInvite({
      routes: {
        'POST /member/invite/org_1': (request: FakeRequest) =>
          (request.body as { email: string }).email === 'b@example.com'
            ? fail(409, 'CONFLICT', 'b@example.com has already been invited.')
            : invited(request),
      },
    });
    await screen.findByRole('group', { name: 'Member 1' });
    await user.type(within(block(1)).getByLabelText('Email address'), 'a@example.com');
    await user.click(screen.getByRole('button', { name: 'Add another member' }));
    await user.type(within(block(2)).getByLabelText('Email address'), 'b@example.com');
    await user.click(sendButton());

    expect(
      await screen.findByText(
        'Failed to invite b@example.com: b@example.com has already been invited.',
      ),
    ).toBeInTheDocument();
    expect(within(block(1)).getByLabelText('Email address')).toHaveValue('b@example.com');
    expect(screen.queryByRole('group', { name: 'Member 2' })).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/org/org_1/invite-members');
  });

  it('points to the plans when inviting needs a subscription', async () => {
    const message = 'No active subscription found. Please subscribe to a plan.';
    const { user, server } = renderInvite({
      routes: { 'POST /member/invite/org_1': fail(403, 'FORBIDDEN', message) },
    });
    await screen.findByRole('group', { name: 'Member 1' });
    await user.type(within(block(1)).getByLabelText('Email address'), 'a@example.com');
    await user.click(screen.getByRole('button', { name: 'Add another member' }));
    await user.type(within(block(2)).getByLabelText('Email address'), 'b@example.com');
    await user.click(sendButton());

    const overlay = await screen.findByRole('dialog', { name: 'Subscription Required' });
    expect(overlay).toHaveTextContent(
      'You need an active subscription to invite team members. Please subscribe to a plan to continue.',
    );
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(server.count('POST /member/invite/org_1')).toBe(1);
    expect(within(overlay).getByRole('link', { name: 'View Plans' })).toHaveAttribute(
      'href',
      '/pricing',
    );
    await user.click(within(overlay).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the invite links to copy before going back to the team', async () => {
    const url = 'http://localhost/invite/accept?token=tok_a';
    const { user, router } = renderInvite({
      routes: { 'POST /member/invite/org_1': (request: FakeRequest) => invited(request, url) },
    });
    await screen.findByRole('group', { name: 'Member 1' });
    await user.type(within(block(1)).getByLabelText('Email address'), 'a@example.com');
    await user.click(sendButton());

    const dialog = await screen.findByRole('dialog', { name: 'Share the invitation links' });
    expect(within(dialog).getByLabelText('Invite link for a@example.com')).toHaveValue(url);
    await user.click(within(dialog).getByRole('button', { name: /Copy invite link/ }));
    expect(await navigator.clipboard.readText()).toBe(url);
    expect(router.state.location.pathname).toBe('/org/org_1/invite-members');

    await user.click(within(dialog).getByRole('button', { name: 'Done — go to Team' }));
    expect(await screen.findByRole('heading', { name: 'Team Management' })).toBeInTheDocument();
  });

  it('rejects an invalid address without calling the server', async () => {
    const { user, server } = renderInvite();
    await screen.findByRole('group', { name: 'Member 1' });
    await user.type(within(block(1)).getByLabelText('Email address'), 'nope');
    await user.click(sendButton());

    expect(within(block(1)).getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(server.count('POST /member/invite/org_1')).toBe(0);
  });

  it('tells a member without member:invite that they cannot invite', async () => {
    const { user } = renderInvite({ me: createMe({ permissions: ['post:create'] }) });
    await screen.findByRole('group', { name: 'Member 1' });

    expect(screen.getByText('You do not have permission to invite members.')).toBeInTheDocument();
    await user.type(within(block(1)).getByLabelText('Email address'), 'a@example.com');
    expect(sendButton()).toBeDisabled();
  });
});

describe('/invite-members', () => {
  it("opens the current organization's invite page", async () => {
    mockServer({ me: createMe(), routes: teamRoutes() });
    const { router } = renderApp('/invite-members');

    expect(await screen.findByRole('heading', { name: 'Invite Members' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/org/org_1/invite-members');
  });
});
