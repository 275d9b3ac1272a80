import type { Post } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { ok, type FakeReply, type Handler } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';
import { createMedia, createPost } from '../testing/post-fixtures';

/** docs/product.md#approvals: the queue, approve (asking when late), reject with a reason. */
const QUEUE = 'GET /organizations/org_1/approvals';
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

function pendingPost(overrides: Partial<Post> = {}): Post {
  return createPost({
    status: 'pending_approval',
    scheduledAt: inHours(5),
    content: { default: 'Shared words', int_fb: 'Words for the Page' },
    platforms: [
      { id: 'plt_x', name: 'X' },
      { id: 'plt_fb', name: 'Facebook' },
    ],
    accounts: [
      {
        id: 'int_x',
        platformId: 'plt_x',
        platformName: 'X',
        name: 'Ada Posts',
        username: 'ada_posts',
        pictureUrl: null,
        connected: true,
      },
      {
        id: 'int_fb',
        platformId: 'plt_fb',
        platformName: 'Facebook',
        name: 'Harbor Cafe',
        username: null,
        pictureUrl: null,
        connected: true,
      },
    ],
    media: [createMedia({ fileName: 'menu.jpg' })],
    creator: { id: 'usr_cc', displayName: 'Grace Hopper' },
    ...overrides,
  });
}

function renderApprovals(
  posts: Post[],
  routes: Record<string, FakeReply | Handler> = {},
  me = createMe(),
) {
  let waiting = [...posts];
  const server = mockServer({
    me,
    routes: {
      [QUEUE]: () => ok({ posts: waiting, count: waiting.length }),
      ...routes,
    },
  });
  const app = renderApp('/approvals');
  return {
    ...app,
    server,
    settle: (id: string) => {
      waiting = waiting.filter((p) => p.id !== id);
    },
  };
}

describe('/approvals', () => {
  it('lists each pending post with its text per account, media and time, and the sidebar count', async () => {
    renderApprovals([pendingPost(), pendingPost({ title: 'Second' })]);
    const list = await screen.findByRole('list', { name: 'Posts waiting for approval' });
    const items = within(list).getAllByRole('listitem', { name: /^(Shared words|Second)$/ });
    expect(items).toHaveLength(2);
    const first = items[0]!;
    const texts = within(first).getByRole('list', { name: 'Text per account' });
    expect(within(texts).getByText('Shared words')).toBeInTheDocument();
    expect(within(texts).getByText('Words for the Page')).toBeInTheDocument();
    expect(within(first).getByRole('img', { name: 'menu.jpg' })).toBeInTheDocument();
    expect(within(first).getByText(/By Grace Hopper · for/)).toBeInTheDocument();
    expect(screen.getByText('2 posts waiting for approval')).toBeInTheDocument();
    // Edit, then "Save and approve" in the composer.
    expect(within(first).getByRole('link', { name: 'Edit Shared words' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/content\/post_\d+\/edit$/),
    );

    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByRole('link', { name: 'Approvals 2 pending' })).toHaveAttribute(
      'href',
      '/approvals',
    );
  });

  it('previews what will go out: tracked links, the thread parts and the first comment', async () => {
    const followUp = (kind: 'part' | 'first_comment', position: number, text: string) => ({
      id: `fu_${position}`,
      kind,
      position,
      text,
      status: 'QUEUED' as const,
      externalId: null,
      permalink: null,
      error: null,
      publishedAt: null,
    });
    const target = {
      id: 'tgt_x',
      platformId: 'plt_x',
      platformName: 'X',
      status: 'QUEUED' as const,
      externalId: null,
      permalink: null,
      error: null,
      publishedAt: null,
      dueAt: null,
      integrationId: 'int_x',
      accountName: 'Ada Posts',
      accountUsername: 'ada_posts',
      accountPictureUrl: null,
      followUps: [
        followUp('part', 2, 'Part two, see https://example.com/tides'),
        followUp('first_comment', 3, 'Tickets at the door'),
      ],
    };
    renderApprovals([
      pendingPost({
        content: { default: 'Regatta at https://example.com/regatta' },
        platformPosts: [target],
        linkTracking: {
          source: null,
          medium: 'social',
          campaign: 'spring',
          term: null,
          content: null,
        },
      }),
    ]);
    const texts = await screen.findByRole('list', { name: 'Text per account' });
    expect(
      within(texts).getAllByText(
        'Regatta at https://example.com/regatta?utm_source=x&utm_medium=social&utm_campaign=spring',
      ),
    ).toHaveLength(1);
    const thread = within(texts).getByRole('list', { name: 'Thread and first comment on X' });
    const items = within(thread).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Part 2Part two, see https://example.com/tides?utm_source=x&utm_medium=social&utm_campaign=spring',
      'First commentTickets at the door',
    ]);
    expect(
      within(texts).getByText(
        'Regatta at https://example.com/regatta?utm_source=facebook&utm_medium=social&utm_campaign=spring',
      ),
    ).toBeInTheDocument();
    // The Page's post has no thread.
    expect(
      within(texts).queryByRole('list', { name: 'Thread and first comment on Facebook' }),
    ).toBeNull();
  });

  it('approves a post: the server schedules it and it leaves the queue', async () => {
    const post = pendingPost();
    const view = renderApprovals([post]);
    view.server.on(`POST /organizations/org_1/approvals/${post.id}/approve`, () => {
      view.settle(post.id);
      return ok({ post: { ...post, status: 'scheduled' } });
    });
    await view.user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Post approved and scheduled.')).toBeInTheDocument();
    expect(await screen.findByText('Nothing is waiting for approval.')).toBeInTheDocument();
    const call = view.server.requests.find((r) => r.method === 'POST');
    expect(call?.body).toEqual({});
  });

  it('asks before approving a post whose time has passed, then publishes it now', async () => {
    const post = pendingPost({ scheduledAt: inHours(-1) });
    const view = renderApprovals([post]);
    view.server.on(`POST /organizations/org_1/approvals/${post.id}/approve`, (request) => {
      if (!(request.body as { publishNow?: boolean }).publishNow) {
        return {
          status: 409,
          body: {
            status: 'error',
            code: 'CONFLICT',
            message: 'This post’s time has passed.',
            details: { timePassed: true },
          },
        };
      }
      view.settle(post.id);
      return ok({ post: { ...post, status: 'publishing' } });
    });
    expect(await screen.findByText(/time has passed/)).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish it now?' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Approve and publish now' }));
    expect(await screen.findByText('Post approved. Publishing has started.')).toBeInTheDocument();
    const bodies = view.server.requests.filter((r) => r.method === 'POST').map((r) => r.body);
    expect(bodies).toEqual([{}, { publishNow: true }]);
  });

  it('rejects only with a reason, which is sent to the server', async () => {
    const post = pendingPost();
    const view = renderApprovals([post]);
    view.server.on(`POST /organizations/org_1/approvals/${post.id}/reject`, () => {
      view.settle(post.id);
      return ok({ post: { ...post, status: 'draft', scheduledAt: null } });
    });
    await view.user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject this post?' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Say why the post is rejected.');
    expect(view.server.requests.some((r) => r.method === 'POST')).toBe(false);

    await view.user.type(within(dialog).getByLabelText('Reason'), 'Wrong hashtag');
    await view.user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(
      await screen.findByText('Post rejected. Its author has been told why.'),
    ).toBeInTheDocument();
    const call = view.server.requests.find((r) => r.method === 'POST');
    expect(call?.body).toEqual({ reason: 'Wrong hashtag' });
    await waitFor(() =>
      expect(screen.getByText('Nothing is waiting for approval.')).toBeInTheDocument(),
    );
  });

  it('is neither linked nor loaded for a member who may not approve', async () => {
    const view = renderApprovals(
      [pendingPost()],
      {},
      createMe({
        role: { id: 'role_cc', name: 'ContentCreator' },
        permissions: ['post:create', 'post:edit'],
      }),
    );
    expect(
      await screen.findByText('Only members who may approve posts see this page.'),
    ).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: /Approvals/ })).toBeNull();
    expect(view.server.requests.some((r) => r.path === '/organizations/org_1/approvals')).toBe(
      false,
    );
  });
});
