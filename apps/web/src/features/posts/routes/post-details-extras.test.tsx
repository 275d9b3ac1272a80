import type { InternalComment } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { ok } from '@/testing/fake-server';
import { createIntegration } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';
import { createPost } from '../testing/post-fixtures';

/** The details page's extras: team comments with @mentions, and Duplicate. */
const post = createPost({ status: 'scheduled', content: 'Harbour market' });
const base = `/organizations/org_1/posts/${post.id}`;
const comment = (overrides: Partial<InternalComment>): InternalComment => ({
  id: 'c1',
  postId: post.id,
  body: 'First thoughts',
  author: { id: 'usr_sam', displayName: 'Sam Patel' },
  mentions: [],
  createdAt: '2026-03-02T09:00:00.000Z',
  isOwn: false,
  ...overrides,
});
const member = (userId: string, displayName: string, email: string) => ({
  id: `mem_${userId}`,
  email,
  status: 'ACTIVE',
  roleId: 'role_admin',
  role: { id: 'role_admin', name: 'Admin' },
  permissions: [],
  accountIds: null,
  user: { id: userId, displayName, avatarUrl: null },
  joinedAt: null,
  invitedAt: null,
  organizationId: 'org_1',
});

async function renderDetails({ permissions }: { permissions?: string[] } = {}) {
  let comments = [
    comment({}),
    comment({
      id: 'c2',
      body: '@Sam Patel looks good',
      author: { id: 'usr_me', displayName: 'Me' },
      mentions: [{ id: 'usr_sam', displayName: 'Sam Patel' }],
      isOwn: true,
    }),
  ];
  const server = mockServer({
    me: createMe(permissions ? { permissions } : {}),
    routes: {
      [`GET ${base}`]: () => ok({ post }),
      'GET /organizations/org_1/integrations': ok({ platforms: [createIntegration()] }),
      'GET /organizations/org_1/posts': ok({ posts: [] }),
      [`GET ${base}/internal-comments`]: () => ok({ comments }),
      [`POST ${base}/internal-comments`]: (request) => {
        const body = request.body as { body: string; mentionedUserIds: string[] };
        const added = comment({ id: 'c3', body: body.body, isOwn: true });
        comments = [...comments, added];
        return { status: 201, body: { status: 'success', data: { comment: added } } };
      },
      [`DELETE ${base}/internal-comments/c2`]: () => {
        comments = comments.filter((c) => c.id !== 'c2');
        return ok({ deleted: true });
      },
      'GET /organizations/org_1/members': {
        status: 200,
        body: {
          status: 'success',
          data: {
            members: [
              member('usr_sam', 'Sam Patel', 'sam@example.com'),
              member('usr_ada', 'Ada Byron', 'ada@example.com'),
            ],
          },
          meta: { page: 1, pageSize: 200, totalCount: 2 },
        },
      },
      [`POST ${base}/duplicate`]: {
        status: 201,
        body: { status: 'success', data: { post: { ...post, id: 'post_copy', status: 'draft' } } },
      },
      'GET /organizations/org_1/posts/post_copy': ok({
        post: { ...post, id: 'post_copy', status: 'draft' },
      }),
    },
  });
  const app = renderApp(['/content', `/content/${post.id}`]);
  await screen.findByRole('heading', { name: 'Post Details', level: 1 });
  return { ...app, server };
}

describe('team comments on /content/{postId}', () => {
  it('lists them, mentions a teammate picked with the keyboard, and deletes one’s own', async () => {
    const { user, server } = await renderDetails();
    const section = await screen.findByRole('region', { name: 'Team comments' });
    const list = await within(section).findByRole('list', { name: 'Team comments' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('@Sam Patel')).toHaveClass('font-semibold');
    // Only one's own comment offers Delete.
    expect(within(section).getAllByRole('button', { name: 'Delete your comment' })).toHaveLength(1);

    const field = within(section).getByRole('combobox', { name: 'Add a team comment' });
    await user.type(field, 'Thanks @ad');
    const option = await within(section).findByRole('option', { name: /Ada Byron/ });
    expect(option).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(field).toHaveValue('Thanks @Ada Byron ');
    await user.type(field, 'for the photo');
    await user.click(within(section).getByRole('button', { name: 'Post comment' }));

    await waitFor(() => expect(server.count(`POST ${base}/internal-comments`)).toBe(1));
    const sent = server.requests.find(
      (r) => r.method === 'POST' && r.path.endsWith('/internal-comments'),
    );
    expect(sent?.body).toEqual({
      body: 'Thanks @Ada Byron for the photo',
      mentionedUserIds: ['usr_ada'],
    });
    expect(await within(section).findByText('Thanks @Ada Byron for the photo')).toBeInTheDocument();
    expect(field).toHaveValue('');

    // The first of one's own two comments: "looks good".
    await user.click(within(section).getAllByRole('button', { name: 'Delete your comment' })[0]!);
    await waitFor(() =>
      expect(within(section).queryByText('looks good', { exact: false })).not.toBeInTheDocument(),
    );
  });

  it('lets members without post:create read but not write', async () => {
    await renderDetails({ permissions: ['dm:view'] });
    const section = await screen.findByRole('region', { name: 'Team comments' });
    await within(section).findByText('First thoughts');
    expect(within(section).queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Duplicate' })).not.toBeInTheDocument();
  });
});

describe('Duplicate on /content/{postId}', () => {
  it('makes a draft copy and opens it in the composer', async () => {
    const { user, server } = await renderDetails();
    await user.click(screen.getByRole('button', { name: 'Duplicate' }));
    await waitFor(() => expect(server.count(`POST ${base}/duplicate`)).toBe(1));
    expect(
      await screen.findByText('Post duplicated as a draft. Make your changes and save.'),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { name: 'Edit Post', level: 1 }, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });
});
