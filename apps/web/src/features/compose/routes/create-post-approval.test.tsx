import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe, myOrganizationOf } from '@/testing/factories';
import { ok, type FakeRequest } from '@/testing/fake-server';
import { CREATE_ROUTE, created, createdPost, renderComposer, tile } from './create-post.fixtures';

/** docs/product.md#approvals: the composer's words for a member who must submit. */
const creator = () =>
  createMe({
    role: { id: 'role_cc', name: 'ContentCreator' },
    permissions: ['post:create', 'post:edit'],
  });

const orgRoute = (
  requirePostApproval: boolean,
  me = creator(),
  postApprovalRoleIds: string[] = [],
) => ({
  'GET /organizations/org_1': ok({
    organization: {
      ...myOrganizationOf(me),
      requirePostApproval,
      postApprovalRoleIds,
      ownerUserId: null,
      branding: { logoUrl: null, color: null },
      isCurrent: undefined,
      memberId: undefined,
    },
  }),
});

const createRequests = (requests: FakeRequest[]) =>
  requests.filter((r) => `${r.method} ${r.path}` === CREATE_ROUTE);

describe('/create-post when the organization requires approval', () => {
  it('says "Submit for approval" to a member without post:approve, and sends without asking', async () => {
    const me = creator();
    const { user, server } = await renderComposer({
      me,
      routes: {
        ...orgRoute(true, me),
        [CREATE_ROUTE]: created(createdPost({ status: 'pending_approval' })),
      },
    });
    await user.click(await tile('X'));
    await user.type(screen.getByLabelText('Post content'), 'For review');
    // A draft is only saved: it says so.
    expect(screen.getByRole('button', { name: 'Save draft' })).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Publish now' }));
    const submit = await screen.findByRole('button', { name: 'Submit for approval' });
    await user.click(submit);

    // No "Publish now?" dialog: nothing goes out before an approver says so.
    expect(screen.queryByRole('dialog', { name: 'Publish now?' })).not.toBeInTheDocument();
    await waitFor(() => expect(createRequests(server.requests)).toHaveLength(1));
    expect(
      await screen.findByText('Submitted for approval. An approver will review it.'),
    ).toBeInTheDocument();
  });

  it('says "Schedule" to an approver', async () => {
    const me = createMe();
    const { user } = await renderComposer({ me, routes: orgRoute(true, me) });
    await user.click(await tile('X'));
    await user.type(screen.getByLabelText('Publish Date & Time'), '2099-06-01T10:15');
    expect(screen.getByRole('radio', { name: 'Schedule' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Schedule' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit for approval' })).not.toBeInTheDocument();
  });

  it('says "Submit for approval" to a member of a chosen role', async () => {
    const me = creator();
    const { user } = await renderComposer({ me, routes: orgRoute(true, me, ['role_cc']) });
    await user.click(await tile('X'));
    await user.type(screen.getByLabelText('Publish Date & Time'), '2099-06-01T10:15');
    expect(await screen.findByRole('button', { name: 'Submit for approval' })).toBeInTheDocument();
  });

  it('says "Schedule" to a member of a role that is not chosen', async () => {
    const me = creator();
    const { user } = await renderComposer({ me, routes: orgRoute(true, me, ['role_cs']) });
    await user.click(await tile('X'));
    await user.type(screen.getByLabelText('Publish Date & Time'), '2099-06-01T10:15');
    expect(await screen.findByRole('button', { name: 'Schedule' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit for approval' })).not.toBeInTheDocument();
  });

  it('says "Schedule" when the organization does not require approval', async () => {
    const me = creator();
    const { user } = await renderComposer({ me, routes: orgRoute(false, me) });
    await user.click(await tile('X'));
    await user.type(screen.getByLabelText('Publish Date & Time'), '2099-06-01T10:15');
    expect(screen.getByRole('button', { name: 'Schedule' })).toBeInTheDocument();
  });
});
