import type { Integration, Post } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok, type FakeRequest, type FakeReply, type Handler } from '@/testing/fake-server';
import { installFakeMedia } from '@/testing/fake-media';
import { installFakeXhr } from '@/testing/fake-xhr';
import { integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';
import { LOCKED_NOTE } from '../components/platform-picker';
import {
  account,
  createdPost,
  fileOf,
  MAIN_BUTTON,
  platformsWithRules,
} from './create-post.fixtures';
import { ALREADY_PUBLISHED } from './edit-post';

const MEDIA_ID = '11111111-0000-4000-8000-000000000001';
const EDIT_ROUTE = (post: Post) => `PUT /organizations/org_1/post/${post.id}`;

function accounts() {
  return {
    x: account('X', { name: 'Acme', username: 'acme' }),
    facebook: account('Facebook', { name: 'Acme Page', username: null }),
    instagram: account('Instagram', { name: 'Acme Studio', username: 'acme.studio' }),
  };
}

function postOn(list: Integration[], overrides: Partial<Post> = {}): Post {
  return createdPost({
    id: 'post_9',
    title: 'Spring launch',
    status: 'scheduled',
    content: 'Launch day',
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
      status: 'QUEUED',
      externalId: null,
      permalink: null,
      error: null,
      publishedAt: null,
      dueAt: '2099-05-10T12:30:00.000Z',
      integrationId: a.id,
      accountName: a.metadata.name,
      accountUsername: a.metadata.username,
      accountPictureUrl: null,
    })),
    media: [
      {
        id: MEDIA_ID,
        mediaUrl: 'https://media.test/launch.jpg',
        thumbnailUrl: null,
        mimeType: 'image/jpeg',
        fileName: 'launch.jpg',
        kind: 'image',
        size: 2048,
        width: 1080,
        height: 1080,
        durationSec: null,
        platformIds: null,
      },
    ],
    ...overrides,
  });
}

async function renderEdit(
  post: Post,
  integrations: Integration[],
  routes: Record<string, Handler | FakeReply> = {},
) {
  const xhr = installFakeXhr();
  installFakeMedia();
  const server = mockServer({
    // The picker's time is read in this zone: 12:30 UTC is 14:30 in Paris in May.
    me: createMe({ user: { timezone: 'Europe/Paris' } }),
    routes: {
      ...integrationRoutes({ platforms: platformsWithRules(), integrations }),
      [`GET /organizations/org_1/posts/${post.id}`]: () => ok({ post }),
      'GET /organizations/org_1/posts': ok({ posts: [] }),
      'GET /organizations/org_1/subscription': ok({ subscription: null }),
      ...routes,
    },
  });
  const app = renderApp(['/content', `/content/${post.id}/edit`]);
  await screen.findByRole('heading', { name: 'Edit Post', level: 1 });
  return { ...app, server, xhr };
}

const entriesOf = (request: FakeRequest | undefined) => {
  if (!(request?.body instanceof FormData)) throw new Error('No multipart request was sent.');
  return [...request.body.entries()];
};

describe('/content/{postId}/edit', () => {
  it('says "Save and approve" to an approver editing a post that waits for approval', async () => {
    const a = accounts();
    const post = postOn([a.x], { status: 'pending_approval' });
    await renderEdit(post, [a.x, a.facebook]);
    expect(await screen.findByRole('button', { name: 'Save and approve' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
  });

  it('loads the post: accounts ticked, text, title, media and time', async () => {
    const a = accounts();
    const post = postOn([a.x, a.facebook]);
    await renderEdit(post, [a.x, a.facebook, a.instagram]);

    expect(await screen.findByRole('checkbox', { name: 'X' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Facebook' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Instagram' })).not.toBeChecked();
    expect(screen.getByLabelText('Post content')).toHaveValue('Launch day');
    expect(screen.getByLabelText('Title (optional)')).toHaveValue('Spring launch');
    expect(screen.getByLabelText('Publish Date & Time')).toHaveValue('2099-05-10T14:30');
    const shared = screen.getByRole('list', { name: 'Shared media' });
    expect(within(shared).getByText('launch.jpg')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: MAIN_BUTTON })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute(
      'href',
      `/content/${post.id}`,
    );
  });

  it('sends the edit: accounts, text, kept and new media, time; then says so and shows the post', async () => {
    const a = accounts();
    const post = postOn([a.x, a.facebook]);
    const { user, server } = await renderEdit(post, [a.x, a.facebook, a.instagram], {
      // The answer is the post as saved: a new updatedAt must not throw the form away unsaid.
      [EDIT_ROUTE(post)]: () =>
        ok({ post: { ...post, content: 'Launch week', updatedAt: '2026-03-02T10:00:00.000Z' } }),
    });

    await user.click(await screen.findByRole('checkbox', { name: 'X' }));
    await user.click(screen.getByRole('checkbox', { name: 'Instagram' }));
    await user.clear(screen.getByLabelText('Post content'));
    await user.type(screen.getByLabelText('Post content'), 'Launch week');
    await user.upload(screen.getByLabelText('Add shared media'), [
      fileOf('second.jpg', 'image/jpeg'),
    ]);
    await within(screen.getByRole('list', { name: 'Shared media' })).findByText('second.jpg');
    const time = screen.getByLabelText('Publish Date & Time');
    await user.clear(time);
    await user.type(time, '2099-05-11T09:15');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Post updated successfully!')).toBeInTheDocument();
    const request = server.requests.find((r) => `${r.method} ${r.path}` === EDIT_ROUTE(post));
    const entries = entriesOf(request);
    const fields = Object.fromEntries(entries.filter(([name]) => name !== 'media'));
    expect(JSON.parse(fields.integrationIds as string)).toEqual([a.facebook.id, a.instagram.id]);
    expect(fields.content).toBe('Launch week');
    expect(fields.action).toBe('schedule');
    // 09:15 in Paris (UTC+2 in May).
    expect(fields.scheduledAt).toBe('2099-05-11T07:15:00.000Z');
    expect(fields.title).toBe('Spring launch');
    expect(JSON.parse(fields.keepMediaIds as string)).toEqual([MEDIA_ID]);
    expect(entries.filter(([name]) => name === 'media').map(([, f]) => (f as File).name)).toEqual([
      'second.jpg',
    ]);
    expect(
      // The details page is its own chunk: its first load may take a while on a busy machine.
      await screen.findByRole('heading', { name: 'Post Details', level: 1 }, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });

  it('removes a stored file by leaving it out of keepMediaIds', async () => {
    const a = accounts();
    const post = postOn([a.facebook]);
    const { user, server } = await renderEdit(post, [a.facebook], {
      [EDIT_ROUTE(post)]: () => ok({ post }),
    });
    await user.click(await screen.findByRole('button', { name: 'Remove launch.jpg' }));
    expect(screen.queryByRole('list', { name: 'Shared media' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Post updated successfully!');
    const fields = Object.fromEntries(
      entriesOf(server.requests.find((r) => r.method === 'PUT')).filter(([n]) => n !== 'media'),
    );
    expect(JSON.parse(fields.keepMediaIds as string)).toEqual([]);
  });

  it('keeps an account the post already went out to ticked and locked, and still names it', async () => {
    const a = accounts();
    const post = postOn([a.x, a.facebook], { status: 'partially_published' });
    post.platformPosts[0] = { ...post.platformPosts[0]!, status: 'PUBLISHED', dueAt: null };
    const { user, server } = await renderEdit(post, [a.x, a.facebook], {
      [EDIT_ROUTE(post)]: () => ok({ post }),
    });
    const x = await screen.findByRole('checkbox', { name: 'X' });
    expect(x).toBeChecked();
    expect(x).toBeDisabled();
    expect(screen.getByText(LOCKED_NOTE)).toBeInTheDocument();
    expect(screen.getByText('Already published')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Facebook' })).toBeEnabled();
    // Only Facebook's preview: X keeps what it published.
    expect(screen.getByRole('article', { name: 'Facebook preview' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'X preview' })).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Post content'), ' — now on Facebook');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Post updated successfully!');
    const fields = Object.fromEntries(
      entriesOf(server.requests.find((r) => r.method === 'PUT')).filter(([n]) => n !== 'media'),
    );
    expect(JSON.parse(fields.integrationIds as string)).toEqual([a.facebook.id, a.x.id]);
  });

  it('says “Needs a check” on an account whose publication nobody could confirm', async () => {
    const a = accounts();
    const post = postOn([a.x, a.facebook], { status: 'failed' });
    post.platformPosts[1] = { ...post.platformPosts[1]!, status: 'UNCERTAIN', dueAt: null };
    await renderEdit(post, [a.x, a.facebook]);
    expect(await screen.findByRole('checkbox', { name: 'Facebook' })).toBeDisabled();
    expect(screen.getByText('Needs a check')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'X' })).toBeEnabled();
  });

  it('shows the server’s refusal as “Failed to update post: …” and stays on the form', async () => {
    const a = accounts();
    const post = postOn([a.facebook]);
    const { user } = await renderEdit(post, [a.facebook], {
      [EDIT_ROUTE(post)]: fail(409, 'CONFLICT', 'This post is being published right now.'),
    });
    await user.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(
      await screen.findByText('Failed to update post: This post is being published right now.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  });

  it('offers no form for a published post', async () => {
    const a = accounts();
    const post = postOn([a.facebook], { status: 'published' });
    await renderEdit(post, [a.facebook]);
    expect(await screen.findByText(ALREADY_PUBLISHED)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Back to the post' })).toHaveAttribute(
        'href',
        `/content/${post.id}`,
      ),
    );
  });
});
