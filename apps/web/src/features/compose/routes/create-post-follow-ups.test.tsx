import type { Integration, Post } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { ok, type FakeRequest } from '@/testing/fake-server';
import { installFakeMedia } from '@/testing/fake-media';
import { installFakeXhr } from '@/testing/fake-xhr';
import { integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';
import {
  account,
  CREATE_ROUTE,
  createButton,
  created,
  createdPost,
  platformsWithRules,
  renderComposer,
  tile,
} from './create-post.fixtures';

/** docs/product.md#threads-and-first-comments: parts per X/Threads account, a first comment where the network has one. */
const x = account('X', { name: 'Acme', username: 'acme' });
const facebook = account('Facebook', { name: 'Acme Page', username: null });

const followUpsField = (requests: FakeRequest[], route = CREATE_ROUTE) => {
  const request = requests.find((r) => `${r.method} ${r.path}` === route);
  if (!(request?.body instanceof FormData)) return undefined;
  const raw = request.body.get('followUps');
  return raw === null ? null : (JSON.parse(String(raw)) as Record<string, unknown>);
};

describe('/create-post: thread parts and first comments', () => {
  it('adds and removes parts per X account, counts each, blocks a part over the limit and sends them', async () => {
    const { user, server } = await renderComposer({
      integrations: [x, facebook],
      path: '/create-post?date=2099-05-10&time=14:30',
      routes: { [CREATE_ROUTE]: created() },
    });
    await user.click(await tile('X'));
    await user.click(await tile('Facebook'));
    await user.type(screen.getByLabelText('Post content'), 'Opening night');

    const section = screen.getByRole('region', { name: 'Thread and first comment' });
    // Folded until asked for, so the form stays short.
    const toggle = within(section).getByRole('button', { name: 'Thread and first comment' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(within(section).queryByRole('group', { name: 'X' })).not.toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const onX = within(section).getByRole('group', { name: 'X' });
    const onFacebook = within(section).getByRole('group', { name: 'Facebook' });
    // Facebook posts cannot be a thread: only its first comment is offered.
    expect(within(onFacebook).queryByRole('button', { name: /Add part/ })).toBeNull();

    await user.click(within(onX).getByRole('button', { name: 'Add part 2' }));
    const second = within(onX).getByLabelText('Part 2 of 2');
    expect(second).toHaveFocus();
    await user.type(second, 'Doors at seven');
    await user.click(within(onX).getByRole('button', { name: 'Add part 3' }));
    await user.click(within(onX).getByLabelText('Part 3 of 3'));
    await user.paste('x'.repeat(300));
    expect(within(onX).getByText('300/280')).toBeInTheDocument();
    expect(
      within(onX).getByText('X: part 3 of 3 is too long (300 of 280 characters).'),
    ).toBeInTheDocument();
    expect(createButton()).toBeDisabled();

    await user.click(within(onX).getByRole('button', { name: 'Remove part 3 for X' }));
    expect(within(onX).queryByLabelText('Part 3 of 3')).toBeNull();
    expect(createButton()).toBeEnabled();
    await user.type(within(onFacebook).getByLabelText('First comment (optional)'), 'Menu below');

    // The preview shows what follows each post.
    const preview = screen.getByRole('region', { name: 'Thread and first comment preview' });
    expect(within(preview).getByText('Part 2 of 2, replying to part 1')).toBeInTheDocument();
    expect(within(preview).getByText('Doors at seven')).toBeInTheDocument();
    expect(within(preview).getByText('Menu below')).toBeInTheDocument();

    await user.click(createButton());
    await waitFor(() => expect(followUpsField(server.requests)).toBeDefined());
    expect(followUpsField(server.requests)).toEqual({
      [x.id]: { parts: ['Doors at seven'] },
      [facebook.id]: { firstComment: 'Menu below' },
    });
  }, 60_000);

  it('sends no followUps field when nothing follows the post', async () => {
    const { user, server } = await renderComposer({
      integrations: [x],
      path: '/create-post?date=2099-05-10&time=14:30',
      routes: { [CREATE_ROUTE]: created() },
    });
    await user.click(await tile('X'));
    await user.type(screen.getByLabelText('Post content'), 'Just one');
    await user.click(createButton());
    await waitFor(() => expect(followUpsField(server.requests)).toBeDefined());
    expect(followUpsField(server.requests)).toBeNull();
  });
});

function postWithThread(list: Integration[]): Post {
  return createdPost({
    id: 'post_7',
    status: 'scheduled',
    content: 'Part one',
    scheduledAt: '2099-05-10T12:30:00.000Z',
    accounts: list.map((a) => ({
      id: a.id,
      platformId: a.platform.id,
      platformName: a.platform.name,
      name: a.metadata.name,
      username: a.metadata.username,
      pictureUrl: null,
      connected: true,
    })),
    platformPosts: list.map((a, index) => ({
      id: `tgt_${index}`,
      platformId: a.platform.id,
      platformName: a.platform.name,
      status: 'QUEUED' as const,
      externalId: null,
      permalink: null,
      error: null,
      publishedAt: null,
      dueAt: '2099-05-10T12:30:00.000Z',
      integrationId: a.id,
      accountName: a.metadata.name,
      accountUsername: a.metadata.username,
      accountPictureUrl: null,
      followUps: [
        {
          id: `fu_${index}_2`,
          kind: 'part' as const,
          position: 2,
          text: 'Part two',
          status: 'QUEUED' as const,
          externalId: null,
          permalink: null,
          error: null,
          publishedAt: null,
        },
        {
          id: `fu_${index}_3`,
          kind: 'first_comment' as const,
          position: 3,
          text: 'Say hi below',
          status: 'QUEUED' as const,
          externalId: null,
          permalink: null,
          error: null,
          publishedAt: null,
        },
      ],
    })),
    media: [],
  });
}

describe('/content/{postId}/edit: thread parts and first comments', () => {
  it('starts from the stored parts and first comment and keeps them when saving', async () => {
    installFakeXhr();
    installFakeMedia();
    const post = postWithThread([x]);
    const route = `PUT /organizations/org_1/post/${post.id}`;
    const server = mockServer({
      me: createMe({ user: { timezone: 'Europe/Paris' } }),
      routes: {
        ...integrationRoutes({ platforms: platformsWithRules(), integrations: [x] }),
        [`GET /organizations/org_1/posts/${post.id}`]: () => ok({ post }),
        'GET /organizations/org_1/posts': ok({ posts: [] }),
        'GET /organizations/org_1/subscription': ok({ subscription: null }),
        [route]: () => ok({ post }),
      },
    });
    const { user } = renderApp(['/content', `/content/${post.id}/edit`]);
    await screen.findByRole('heading', { name: 'Edit Post', level: 1 });
    const onX = await screen.findByRole('group', { name: 'X' });
    expect(within(onX).getByLabelText('Part 2 of 2')).toHaveValue('Part two');
    expect(within(onX).getByLabelText('First comment (optional)')).toHaveValue('Say hi below');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(followUpsField(server.requests, route)).toBeDefined());
    expect(followUpsField(server.requests, route)).toEqual({
      [x.id]: { parts: ['Part two'], firstComment: 'Say hi below' },
    });
  });
});
