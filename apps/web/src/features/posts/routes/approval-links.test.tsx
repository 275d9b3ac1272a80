import type { ApprovalLink, Post } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok, type FakeRequest } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';
import { LINK_REVOKED } from '../components/approval-links/client-approval-panel';
import { LINK_COPIED } from '../components/approval-links/send-to-client-dialog';
import { createPost } from '../testing/post-fixtures';
import { renderDetails } from '../testing/render-details';

/** docs/product.md#client-approval-links in the app: sending, the link once, its state, revoking. */
const LINKS = '/organizations/org_1/approval-links';
const URL_SHOWN = `http://localhost/approve/${'k'.repeat(43)}`;
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

function pendingPost(overrides: Partial<Post> = {}): Post {
  return createPost({ status: 'pending_approval', scheduledAt: inHours(5), ...overrides });
}

function link(overrides: Partial<ApprovalLink> = {}): ApprovalLink {
  return {
    id: 'lnk_1',
    state: 'open',
    approverName: 'Dana Client',
    approverEmail: null,
    message: null,
    createdAt: '2099-03-01T09:00:00.000Z',
    expiresAt: '2099-03-08T09:00:00.000Z',
    revokedAt: null,
    createdBy: { id: 'usr_1', displayName: 'Sam Manager' },
    posts: [],
    ...overrides,
  };
}

/** The server's answer to a new link, echoing what it was sent. */
const created = (request: FakeRequest) => {
  const body = request.body as { postIds: string[]; approverName?: string; approverEmail?: string };
  return {
    status: 201,
    body: {
      status: 'success',
      data: {
        url: URL_SHOWN,
        emailSent: false,
        link: link({
          approverName: body.approverName ?? null,
          approverEmail: body.approverEmail ?? null,
          posts: body.postIds.map((postId) => ({
            postId,
            label: postId,
            decision: null,
            comment: null,
            decidedAt: null,
          })),
        }),
      },
    },
  };
};

describe('sending posts to a client from the approvals queue', () => {
  it('sends the chosen posts in one link and shows it once, with Copy', async () => {
    const posts = [
      pendingPost({ title: 'First' }),
      pendingPost({ title: 'Second' }),
      pendingPost({ title: 'Third' }),
    ];
    const server = mockServer({
      me: createMe(),
      routes: {
        'GET /organizations/org_1/approvals': ok({ posts, count: posts.length }),
        [`POST ${LINKS}`]: created,
      },
    });
    const { user } = renderApp('/approvals');
    const list = await screen.findByRole('list', { name: 'Posts waiting for approval' });
    await user.click(within(list).getByRole('checkbox', { name: 'Select First' }));
    await user.click(within(list).getByRole('checkbox', { name: 'Select Third' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send 2 to client' }));

    const dialog = await screen.findByRole('dialog', { name: 'Send to client for approval' });
    expect(dialog).toHaveTextContent('Your client sees these 2 posts');
    await user.type(within(dialog).getByLabelText('Client’s name'), 'Dana Client');
    await user.type(within(dialog).getByLabelText('Client’s email (optional)'), 'dana@client.test');
    await user.selectOptions(within(dialog).getByLabelText('Link works for'), '14');
    await user.type(within(dialog).getByLabelText('Note to your client (optional)'), 'For launch');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    const ready = await screen.findByRole('dialog', { name: 'Approval link ready' });
    expect(within(ready).getByLabelText('Approval link')).toHaveValue(URL_SHOWN);
    expect(ready).toHaveTextContent('This is the only time the link is shown');
    expect(ready).toHaveTextContent('Herald could not email dana@client.test');
    const sent = server.requests.find((r) => r.method === 'POST' && r.path === LINKS);
    expect(sent?.body).toEqual({
      postIds: [posts[0]!.id, posts[2]!.id],
      approverName: 'Dana Client',
      approverEmail: 'dana@client.test',
      expiresInDays: 14,
      message: 'For launch',
    });

    await user.click(within(ready).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText(LINK_COPIED)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(URL_SHOWN);

    // Done: the link is gone with the dialog, and so is the choice.
    await user.click(within(ready).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue(URL_SHOWN)).not.toBeInTheDocument();
    expect(screen.getByText('Select all')).toBeInTheDocument();
  });

  it('sends one post from its own button with a 7-day link by default; a refusal is said in the dialog', async () => {
    const post = pendingPost({ title: 'Only one' });
    const server = mockServer({
      me: createMe(),
      routes: {
        'GET /organizations/org_1/approvals': ok({ posts: [post], count: 1 }),
        [`POST ${LINKS}`]: fail(
          409,
          'CONFLICT',
          'Only posts waiting for approval can be sent to a client; “Only one” is not. Reload the list.',
        ),
      },
    });
    const { user } = renderApp('/approvals');
    await user.click(
      await screen.findByRole('button', { name: 'Send Only one to client for approval' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Send to client for approval' });
    expect(within(dialog).getByLabelText('Link works for')).toHaveValue('7');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('“Only one” is not');
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      postIds: [post.id],
      expiresInDays: 7,
    });
  });
});

describe('a post’s client approval links on its details', () => {
  it('offers Send to client for a pending post and lists its links with their state and decision', async () => {
    const post = pendingPost({ title: 'Pending one' });
    const decidedLink = link({
      id: 'lnk_2',
      state: 'decided',
      approverName: null,
      approverEmail: 'erin@client.test',
      posts: [
        {
          postId: post.id,
          label: 'Pending one',
          decision: 'request_changes',
          comment: 'Warmer photo',
          decidedAt: '2099-03-02T09:00:00.000Z',
        },
      ],
    });
    const openLink = link({
      posts: [
        { postId: post.id, label: 'Pending one', decision: null, comment: null, decidedAt: null },
        { postId: 'post_x', label: 'Other', decision: null, comment: null, decidedAt: null },
      ],
    });
    const { user, server } = await renderDetails(post, {
      routes: {
        [`GET ${LINKS}`]: ok({ links: [openLink, decidedLink] }),
        [`DELETE ${LINKS}/lnk_1`]: ok({ link: { ...openLink, state: 'revoked' } }),
      },
    });
    const panel = await screen.findByRole('region', { name: 'Client approval' });
    expect(
      within(panel).getByRole('button', { name: 'Send to client for approval' }),
    ).toBeEnabled();
    const links = await within(panel).findByRole('list', { name: 'Client approval links' });
    const [open, decided] = within(links).getAllByRole('listitem');
    expect(open).toHaveTextContent('For Dana Client');
    expect(open).toHaveTextContent('Open');
    expect(open).toHaveTextContent('Waiting for the client');
    expect(open).toHaveTextContent('with 1 other post');
    expect(decided).toHaveTextContent('For erin@client.test');
    expect(decided).toHaveTextContent('Decided');
    expect(decided).toHaveTextContent('Asked for changes: “Warmer photo”');
    expect(within(decided!).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    const query = server.requests.find((r) => r.method === 'GET' && r.path === LINKS);
    expect(query?.query.get('postId')).toBe(post.id);

    await user.click(
      within(open!).getByRole('button', { name: 'Revoke the link for Dana Client' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Revoke this approval link?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke link' }));
    expect(await screen.findByText(LINK_REVOKED)).toBeInTheDocument();
    expect(server.count(`DELETE ${LINKS}/lnk_1`)).toBe(1);
  });

  it('shows nothing of it to a member who may not approve posts', async () => {
    const { server } = await renderDetails(pendingPost(), {
      me: createMe({
        role: { id: 'role_cc', name: 'ContentCreator' },
        permissions: ['post:create', 'post:edit'],
      }),
    });
    expect(screen.getByRole('region', { name: 'Details' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Client approval' })).not.toBeInTheDocument();
    expect(server.count(`GET ${LINKS}`)).toBe(0);
  });

  it('shows nothing for a post that never went to a client and waits for nobody', async () => {
    await renderDetails(createPost({ status: 'scheduled', scheduledAt: inHours(2) }));
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Details' })).toBeInTheDocument(),
    );
    expect(screen.queryByRole('region', { name: 'Client approval' })).not.toBeInTheDocument();
  });
});
