import type { Comment, Post } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok, type FakeRequest } from '@/testing/fake-server';
import { createPlatformPost, createPost } from '../testing/post-fixtures';
import {
  commentPath,
  commentsPage,
  commentsPath,
  connectedTo,
  createComment,
  renderDetails,
} from '../testing/render-details';

/** Published on X and Facebook; Threads failed. */
function publishedPost(): Post {
  return createPost({
    status: 'published',
    platforms: [
      { id: 'plt_x', name: 'X' },
      { id: 'plt_facebook', name: 'Facebook' },
      { id: 'plt_threads', name: 'Threads' },
    ],
    platformPosts: [
      createPlatformPost({ platformId: 'plt_x', status: 'PUBLISHED', externalId: '17' }),
      createPlatformPost({
        platformId: 'plt_facebook',
        platformName: 'Facebook',
        status: 'PUBLISHED',
        externalId: '99_1',
      }),
      createPlatformPost({ platformId: 'plt_threads', platformName: 'Threads', status: 'FAILED' }),
    ],
  });
}

const section = () => screen.getByRole('region', { name: 'Comments' });
const network = (name: string) => within(section()).getByRole('listitem', { name });
const commentBy = async (name: string) =>
  (await within(section()).findByRole('article', { name })) as HTMLElement;

async function openComments(post: Post, comments: Comment[], options = {}) {
  const view = await renderDetails(post, {
    integrations: connectedTo('X', 'Facebook', 'Threads'),
    ...options,
  });
  view.server.on(`GET ${commentsPath(post, 'plt_x')}`, commentsPage(comments));
  await view.user.click(within(network('X')).getByRole('button', { name: /See Comments/ }));
  return view;
}

describe('/content/{postId} Comments', () => {
  it('offers See Comments per published network and reads them only when asked', async () => {
    const post = publishedPost();
    const ada = createComment({
      from: { id: 'u1', name: 'Ada Lovelace', picture: { data: { url: 'https://pic/ada.jpg' } } },
      message: 'Lovely launch!',
      likes: 3,
      replies: [
        createComment({
          from: { id: 'u2', name: 'Herald Team', picture: { data: { url: null } } },
          message: 'Thank you!',
          created_time: new Date(Date.now() - 2 * 3_600_000).toISOString(),
        }),
      ],
    });
    const { user, server } = await renderDetails(post, {
      integrations: connectedTo('X', 'Facebook', 'Threads'),
      routes: { [`GET ${commentsPath(post, 'plt_x')}`]: commentsPage([ada]) },
    });

    expect(within(network('X')).getByRole('button', { name: /See Comments/ })).toBeEnabled();
    expect(within(network('Facebook')).getByRole('button', { name: /See Comments/ })).toBeEnabled();
    expect(
      within(network('Threads')).queryByRole('button', { name: /See Comments/ }),
    ).not.toBeInTheDocument();
    expect(server.count(`GET ${commentsPath(post, 'plt_x')}`)).toBe(0);

    await user.click(within(network('X')).getByRole('button', { name: /See Comments/ }));
    const comment = await commentBy('Ada Lovelace');
    expect(within(comment).getByText('Lovely launch!')).toBeInTheDocument();
    expect(within(comment).getAllByText('3m ago')).toHaveLength(1);
    expect(within(comment).getByText('3 likes')).toBeInTheDocument();
    expect(
      server.requests.find((r) => r.path === commentsPath(post, 'plt_x'))?.query.get('limit'),
    ).toBe('25');

    const replies = within(comment).getByRole('list', { name: 'Replies to Ada Lovelace' });
    const reply = within(replies).getByRole('article', { name: 'Herald Team' });
    expect(reply).toHaveTextContent('Thank you!');
    expect(reply).toHaveTextContent('2h ago');
    // Only the connected account's own comments can be edited or deleted.
    expect(within(comment).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it("says 'Failed to load comments for {platform}.' or the server's sentence", async () => {
    const post = publishedPost();
    const { user, server } = await renderDetails(post, {
      integrations: connectedTo('X', 'Facebook'),
      routes: {
        // An answer this app cannot read: no sentence of the server's to show.
        [`GET ${commentsPath(post, 'plt_x')}`]: ok({ nothing: true }),
        [`GET ${commentsPath(post, 'plt_facebook')}`]: fail(
          400,
          'VALIDATION_FAILED',
          'Reading comments is not available for Facebook.',
        ),
      },
    });

    await user.click(within(network('X')).getByRole('button', { name: /See Comments/ }));
    const xAlert = await within(network('X')).findByRole('alert');
    expect(xAlert).toHaveTextContent('Failed to load comments for X.');

    await user.click(within(network('Facebook')).getByRole('button', { name: /See Comments/ }));
    const fbAlert = await within(network('Facebook')).findByRole('alert');
    expect(fbAlert).toHaveTextContent('Reading comments is not available for Facebook.');
    expect(within(fbAlert).queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();

    server.on(
      `GET ${commentsPath(post, 'plt_x')}`,
      commentsPage([createComment({ message: 'Back again' })]),
    );
    await user.click(within(xAlert).getByRole('button', { name: 'Try Again' }));
    expect(await within(network('X')).findByText('Back again')).toBeInTheDocument();
  });

  it('says what TikTok allows instead of offering comments that would only fail', async () => {
    const post = createPost({
      status: 'published',
      platforms: [{ id: 'plt_tiktok', name: 'TikTok' }],
      platformPosts: [
        createPlatformPost({
          platformId: 'plt_tiktok',
          platformName: 'TikTok',
          status: 'PUBLISHED',
          externalId: 'v_1',
          permalink: 'https://www.tiktok.com/@ada/video/1',
        }),
      ],
    });
    const { server } = await renderDetails(post, { integrations: connectedTo('TikTok') });

    const tiktok = network('TikTok');
    expect(within(tiktok).queryByRole('button', { name: /See Comments/ })).toBeNull();
    expect(tiktok).toHaveTextContent(/TikTok does not let apps read or answer comments/);
    expect(within(tiktok).getByRole('link', { name: 'Open on TikTok' })).toHaveAttribute(
      'href',
      'https://www.tiktok.com/@ada/video/1',
    );
    expect(within(tiktok).queryByRole('alert')).toBeNull();
    expect(server.requests.some((r) => r.path.includes('/comments/'))).toBe(false);
  });

  it('offers one See Comments per account when the post went out from two X accounts', async () => {
    const post = createPost({
      status: 'published',
      platforms: [{ id: 'plt_x', name: 'X' }],
      platformPosts: [
        createPlatformPost({ status: 'PUBLISHED', externalId: '17' }),
        createPlatformPost({
          status: 'PUBLISHED',
          externalId: '18',
          integrationId: 'int_x2',
          accountName: 'Ada News',
          accountUsername: 'ada_news',
        }),
      ],
    });
    const news = createComment({
      id: 'c_news',
      from: { id: 'u9', name: 'News Reader', picture: { data: { url: null } } },
      message: 'Breaking!',
    });
    const { user, server } = await renderDetails(post, {
      integrations: connectedTo('X'),
      routes: {
        [`GET ${commentsPath(post, 'plt_x')}`]: ({ query }: FakeRequest) =>
          query.get('integrationId') === 'int_x2' ? commentsPage([news]) : commentsPage([]),
        [`POST ${commentPath('plt_x', 'c_news')}/replies`]: ok({
          data: createComment({ id: 'c_r', message: 'Thanks', isOwn: true }),
        }),
      },
    });

    const first = network('X · Ada Posts');
    const second = network('X · Ada News');
    expect(within(first).getByRole('button', { name: /See Comments/ })).toBeEnabled();
    await user.click(within(second).getByRole('button', { name: /See Comments/ }));

    const list = await within(second).findByRole('list', { name: 'Comments on X · Ada News' });
    expect(within(list).getByText('Breaking!')).toBeInTheDocument();
    const asked = server.requests.filter((r) => r.path === commentsPath(post, 'plt_x'));
    expect(asked.map((r) => r.query.get('integrationId'))).toEqual(['int_x2']);

    const comment = await commentBy('News Reader');
    await user.click(within(comment).getByRole('button', { name: 'Reply' }));
    await user.type(within(comment).getByRole('textbox'), 'Thanks{Enter}');
    await waitFor(() =>
      expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
        message: 'Thanks',
        postId: post.id,
        integrationId: 'int_x2',
      }),
    );
    // The first account's comments are read only when asked for.
    expect(within(first).queryByRole('list')).toBeNull();
  });

  it('replies for real and shows the reply in the thread; Enter sends, Shift+Enter is a new line', async () => {
    const post = publishedPost();
    const ada = createComment({
      id: 'c_ada',
      from: { id: 'u1', name: 'Ada Lovelace', picture: { data: { url: null } } },
    });
    const { user, server } = await openComments(post, [ada]);
    server.on(`POST ${commentPath('plt_x', 'c_ada')}/replies`, ({ body }: FakeRequest) =>
      ok({
        data: createComment({
          id: 'c_reply',
          message: (body as { message: string }).message,
          isOwn: true,
          from: { id: 'acct', name: 'Herald Studio', picture: { data: { url: null } } },
        }),
      }),
    );

    const comment = await commentBy('Ada Lovelace');
    await user.click(within(comment).getByRole('button', { name: 'Reply' }));
    const field = within(comment).getByRole('textbox', { name: 'Reply to Ada Lovelace' });
    expect(field).toHaveStyle({ maxHeight: '120px' });
    expect(within(comment).getByRole('button', { name: 'Send' })).toBeDisabled();

    await user.type(field, 'Thanks Ada!{Shift>}{Enter}{/Shift}See you soon');
    expect(field).toHaveValue('Thanks Ada!\nSee you soon');
    expect(within(comment).getByRole('button', { name: 'Send' })).toBeEnabled();
    await user.type(field, '{Enter}');

    const replies = await within(comment).findByRole('list', { name: 'Replies to Ada Lovelace' });
    expect(
      await within(replies).findByRole('article', { name: 'Herald Studio' }),
    ).toHaveTextContent('Thanks Ada! See you soon');
    expect(
      server.requests.find((r) => r.method === 'POST' && r.path.endsWith('/replies'))?.body,
    ).toEqual({
      message: 'Thanks Ada!\nSee you soon',
      postId: post.id,
    });
    expect(
      within(comment).queryByRole('textbox', { name: 'Reply to Ada Lovelace' }),
    ).not.toBeInTheDocument();
  });

  it("refuses an empty reply: 'Reply cannot be empty.' and no call", async () => {
    const post = publishedPost();
    const { user, server } = await openComments(post, [createComment({ id: 'c_1' })]);
    const comment = await commentBy('Grace Hopper');
    await user.click(within(comment).getByRole('button', { name: 'Reply' }));
    const field = within(comment).getByRole('textbox', { name: 'Reply to Grace Hopper' });
    await user.type(field, '   {Enter}');

    expect(within(comment).getByRole('alert')).toHaveTextContent('Reply cannot be empty.');
    expect(within(comment).getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(server.count(`POST ${commentPath('plt_x', 'c_1')}/replies`)).toBe(0);
  });

  it("says 'Failed to post reply.' (or the server's reason) and keeps the text", async () => {
    const post = publishedPost();
    const { user, server } = await openComments(post, [createComment({ id: 'c_1' })]);
    // An answer without the new reply: nothing of the server's to say, so the fallback does.
    server.on(`POST ${commentPath('plt_x', 'c_1')}/replies`, ok({ nope: true }));
    const comment = await commentBy('Grace Hopper');
    await user.click(within(comment).getByRole('button', { name: 'Reply' }));
    const field = within(comment).getByRole('textbox', { name: 'Reply to Grace Hopper' });
    await user.type(field, 'Hello{Enter}');

    expect(await screen.findByText('Failed to post reply.')).toBeInTheDocument();
    expect(field).toHaveValue('Hello');
  });

  it('explains, in the server’s words, that X refused a reply the commenter did not “summon”', async () => {
    const post = publishedPost();
    const { user, server } = await openComments(post, [createComment({ id: 'c_1' })]);
    const why =
      'X only accepts a reply sent through an app when the person you answer has mentioned or quoted your account (X calls this being “summoned”). This comment did not, so answer it on X itself.';
    server.on(`POST ${commentPath('plt_x', 'c_1')}/replies`, fail(400, 'VALIDATION_FAILED', why));
    const comment = await commentBy('Grace Hopper');
    await user.click(within(comment).getByRole('button', { name: 'Reply' }));
    const field = within(comment).getByRole('textbox', { name: 'Reply to Grace Hopper' });
    await user.type(field, 'Hello{Enter}');

    expect(await screen.findByText(why)).toBeInTheDocument();
    expect(screen.queryByText('Failed to post reply.')).not.toBeInTheDocument();
    expect(field).toHaveValue('Hello');
  });

  it('edits and deletes own comments for real, asking before deleting', async () => {
    const post = publishedPost();
    const own = createComment({
      id: 'c_own',
      isOwn: true,
      likes: 2,
      message: 'Frist!',
      from: { id: 'acct', name: 'Herald Studio', picture: { data: { url: null } } },
    });
    const { user, server } = await openComments(post, [own, createComment({ id: 'c_other' })]);
    server.on(`PUT ${commentPath('plt_x', 'c_own')}`, ok(null));
    server.on(`DELETE ${commentPath('plt_x', 'c_own')}`, ok(null));

    const comment = await commentBy('Herald Studio');
    expect(
      within(await commentBy('Grace Hopper')).queryByRole('button', { name: 'Delete' }),
    ).not.toBeInTheDocument();

    await user.click(within(comment).getByRole('button', { name: 'Edit' }));
    const field = within(comment).getByRole('textbox', { name: 'Edit comment' });
    expect(field).toHaveValue('Frist!');
    await user.clear(field);
    await user.type(field, 'First!');
    await user.click(within(comment).getByRole('button', { name: 'Save' }));

    expect(await within(comment).findByText('First!')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      message: 'First!',
      postId: post.id,
    });
    // The edit changes the text only: the author and likes stay.
    expect(within(comment).getByText('2 likes')).toBeInTheDocument();
    expect(await commentBy('Herald Studio')).toBeInTheDocument();

    await user.click(within(comment).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this comment?' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete this comment?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.count(`DELETE ${commentPath('plt_x', 'c_own')}`)).toBe(0);

    await user.click(within(comment).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete this comment?' })).getByRole(
        'button',
        { name: 'Delete' },
      ),
    );
    await waitFor(() =>
      expect(
        within(section()).queryByRole('article', { name: 'Herald Studio' }),
      ).not.toBeInTheDocument(),
    );
    expect(server.count(`DELETE ${commentPath('plt_x', 'c_own')}`)).toBe(1);
    expect(await screen.findByText('Comment deleted.')).toBeInTheDocument();
    expect(await commentBy('Grace Hopper')).toBeInTheDocument();
  });

  it("shows the server's sentence and hides Edit when the network cannot edit comments", async () => {
    const post = publishedPost();
    const mine = (id: string) =>
      createComment({
        id,
        isOwn: true,
        from: { id: 'acct', name: `Herald ${id}`, picture: { data: { url: null } } },
      });
    const { user, server } = await openComments(post, [mine('a'), mine('b')]);
    server.on(
      `PUT ${commentPath('plt_x', 'a')}`,
      fail(400, 'VALIDATION_FAILED', 'Editing comments is not available for X.'),
    );

    const first = await commentBy('Herald a');
    await user.click(within(first).getByRole('button', { name: 'Edit' }));
    await user.type(within(first).getByRole('textbox', { name: 'Edit comment' }), ' again');
    await user.click(within(first).getByRole('button', { name: 'Save' }));

    expect(
      await within(network('X')).findByText('Editing comments is not available for X.'),
    ).toBeInTheDocument();
    expect(within(network('X')).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(
      within(await commentBy('Herald b')).getByRole('button', { name: 'Delete' }),
    ).toBeInTheDocument();
  });

  it('toggles a like locally: the count goes up by one and back', async () => {
    const post = publishedPost();
    const { user, server } = await openComments(post, [createComment({ likes: 1 })]);
    const comment = await commentBy('Grace Hopper');
    const like = within(comment).getByRole('button', { name: 'Like' });
    expect(like).toHaveAttribute('aria-pressed', 'false');
    expect(within(comment).getByText('1 like')).toBeInTheDocument();

    await user.click(like);
    expect(like).toHaveAttribute('aria-pressed', 'true');
    expect(within(comment).getByText('2 likes')).toBeInTheDocument();
    await user.click(like);
    expect(within(comment).getByText('1 like')).toBeInTheDocument();
    // Likes are not sent anywhere.
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it("reads the next page with 'Load more' while there is a next cursor", async () => {
    const post = publishedPost();
    const { user, server } = await renderDetails(post, {
      integrations: connectedTo('X'),
      routes: {
        [`GET ${commentsPath(post, 'plt_x')}`]: ({ query }: FakeRequest) =>
          query.get('cursor') === 'page-2'
            ? commentsPage([createComment({ message: 'Second page' })])
            : commentsPage([createComment({ message: 'First page' })], 'page-2'),
      },
    });
    await user.click(within(network('X')).getByRole('button', { name: /See Comments/ }));
    expect(await within(network('X')).findByText('First page')).toBeInTheDocument();

    await user.click(within(network('X')).getByRole('button', { name: 'Load more' }));
    expect(await within(network('X')).findByText('Second page')).toBeInTheDocument();
    expect(within(network('X')).getByText('First page')).toBeInTheDocument();
    expect(
      within(network('X')).queryByRole('button', { name: 'Load more' }),
    ).not.toBeInTheDocument();
    expect(server.count(`GET ${commentsPath(post, 'plt_x')}`)).toBe(2);
  });

  it('hides Reply, Edit and Delete from members without dm:send', async () => {
    const post = publishedPost();
    await openComments(post, [createComment({ isOwn: true })], {
      me: createMe({ permissions: ['post:create'] }),
    });
    const comment = await commentBy('Grace Hopper');
    expect(within(comment).getByRole('button', { name: 'Like' })).toBeInTheDocument();
    expect(within(comment).queryByRole('button', { name: 'Reply' })).not.toBeInTheDocument();
    expect(within(comment).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(comment).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
