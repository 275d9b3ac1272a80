import type { Post } from '@herald/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { createIntegration } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';
import { createMedia, createPlatformPost, createPost } from '../testing/post-fixtures';

// jsdom has no PointerEvent; a mouse event with a pointer id is all the carousel reads.
class FakePointerEvent extends MouseEvent {
  readonly pointerId: number;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerId = init.pointerId ?? 1;
  }
}
window.PointerEvent ??= FakePointerEvent as unknown as typeof PointerEvent;

const postPath = (post: Post) => `/organizations/org_1/posts/${post.id}`;

async function renderDetails(
  post: Post,
  { me = createMe(), integrations = [createIntegration()], routes = {} } = {},
) {
  const server = mockServer({
    me,
    routes: {
      [`GET ${postPath(post)}`]: () => ok({ post }),
      'GET /organizations/org_1/integrations': ok({ platforms: integrations }),
      'GET /organizations/org_1/posts': ok({ posts: [] }),
      ...routes,
    },
  });
  const app = renderApp(['/content', `/content/${post.id}`]);
  await screen.findByRole('heading', { name: 'Post Details', level: 1 });
  return { ...app, server };
}

const region = (name: string) => screen.getByRole('region', { name });
const detail = (label: string) =>
  within(region('Details')).getByText(label, { selector: 'dt' }).nextElementSibling;

describe('/content/{postId}', () => {
  it('shows the header, the content and the details', async () => {
    const post = createPost({
      status: 'scheduled',
      content: 'Our spring launch',
      createdAt: '2026-03-02T09:00:00.000Z',
      scheduledAt: '2026-04-10T15:30:00.000Z',
      creator: { id: 'usr_grace', displayName: 'Grace Hopper' },
    });
    await renderDetails(post);

    expect(screen.getByRole('link', { name: 'Back to Posts' })).toHaveAttribute('href', '/content');
    expect(screen.getByRole('link', { name: 'Edit Post' })).toBeInTheDocument();
    expect(within(region('Content')).getByText('Our spring launch')).toBeInTheDocument();
    expect(detail('Status')).toHaveTextContent('Scheduled');
    expect(detail('Created At')).toHaveTextContent(/^Mar 2, 2026/);
    expect(detail('Scheduled For')).toHaveTextContent(/^Apr 10, 2026/);
    expect(detail('Author')).toHaveTextContent('Grace Hopper');
  });

  it("reads 'Invalid date' for a date that cannot be read", async () => {
    const post = createPost({ createdAt: 'yesterday-ish', scheduledAt: 'not a date' });
    await renderDetails(post);
    expect(detail('Created At')).toHaveTextContent('Invalid date');
    expect(detail('Scheduled For')).toHaveTextContent('Invalid date');
  });

  it('Edit Post opens the composer with the post loaded', async () => {
    const post = createPost({ status: 'scheduled', content: 'First words' });
    await renderDetails(post);
    expect(screen.getByRole('link', { name: 'Edit Post' })).toHaveAttribute(
      'href',
      `/content/${post.id}/edit`,
    );
    // The text is edited in the composer only: no inline field, no Save Changes here.
    expect(within(region('Content')).queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
  });

  it('shows texts customized per network under the shared text', async () => {
    const post = createPost({
      content: { default: 'Shared words', plt_x: 'Short for X' },
      platforms: [
        { id: 'plt_x', name: 'X' },
        { id: 'plt_facebook', name: 'Facebook' },
      ],
    });
    await renderDetails(post);
    expect(within(region('Content')).getByText('Shared words')).toBeInTheDocument();
    expect(
      within(region('Content')).getByRole('listitem', { name: 'Text for X' }),
    ).toHaveTextContent('Short for X');
  });

  it('offers no Edit Post while the post is being published', async () => {
    await renderDetails(createPost({ status: 'publishing' }));
    expect(screen.queryByRole('link', { name: 'Edit Post' })).not.toBeInTheDocument();
  });

  it('hides Edit Post for a published post and says where it went', async () => {
    const post = createPost({
      status: 'published',
      platforms: [
        { id: 'plt_x', name: 'X' },
        { id: 'plt_facebook', name: 'Facebook' },
      ],
      platformPosts: [
        createPlatformPost({ status: 'PUBLISHED', permalink: 'https://x.example/1' }),
        createPlatformPost({
          platformId: 'plt_facebook',
          platformName: 'Facebook',
          status: 'FAILED',
          error: 'The Page token expired.',
        }),
      ],
    });
    await renderDetails(post);

    expect(screen.queryByRole('link', { name: 'Edit Post' })).not.toBeInTheDocument();
    const publish = region('Publish to Platform');
    expect(
      within(publish).getByText('This post was published to X, Facebook.'),
    ).toBeInTheDocument();
    expect(within(publish).queryByRole('button', { name: /Publish Now/ })).not.toBeInTheDocument();
    const x = within(publish).getByRole('listitem', { name: 'X' });
    expect(within(x).getByText('Published')).toBeInTheDocument();
    expect(within(x).getByRole('link', { name: /View on X/ })).toHaveAttribute(
      'href',
      'https://x.example/1',
    );
    const facebook = within(publish).getByRole('listitem', { name: 'Facebook' });
    expect(facebook).toHaveTextContent('Failed: The Page token expired.');
  });

  it('reads each network of a publishing post, offers comments only where published, and Close goes back', async () => {
    const post = createPost({
      status: 'publishing',
      platforms: [
        { id: 'plt_x', name: 'X' },
        { id: 'plt_threads', name: 'Threads' },
        { id: 'plt_tiktok', name: 'TikTok' },
      ],
      platformPosts: [
        createPlatformPost({
          platformId: 'plt_tiktok',
          platformName: 'TikTok',
          status: 'UNCERTAIN',
        }),
        createPlatformPost({ platformId: 'plt_threads', platformName: 'Threads', status: 'READY' }),
      ],
    });
    const { user, router } = await renderDetails(post);
    const publish = region('Publish to Platform');

    await waitFor(() =>
      expect(within(publish).getByRole('listitem', { name: 'X' })).toHaveTextContent('Connected'),
    );
    expect(within(publish).getByRole('listitem', { name: 'Threads' })).toHaveTextContent(
      'Publishing...',
    );
    expect(within(publish).getByRole('listitem', { name: 'TikTok' })).toHaveTextContent(
      'Needs check',
    );
    expect(within(publish).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(within(publish).getByRole('button', { name: /Publish Now/ })).toBeEnabled();

    // Nothing went out yet: no network has comments to read.
    expect(
      within(region('Comments')).queryByRole('button', { name: /See Comments/ }),
    ).not.toBeInTheDocument();

    await user.click(within(publish).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/content'));
  });

  it('reads a queued network of a scheduled post as Queued for its time, not Publishing...', async () => {
    const post = createPost({
      status: 'scheduled',
      scheduledAt: '2030-03-05T09:30:00.000Z',
      platformPosts: [createPlatformPost({ status: 'QUEUED', dueAt: '2030-03-05T09:30:00.000Z' })],
    });
    await renderDetails(post);
    const x = within(region('Publish to Platform')).getByRole('listitem', { name: 'X' });
    expect(x).toHaveTextContent(/Queued for Mar 5, 2030 \d+:30 (AM|PM)/);
    expect(x).not.toHaveTextContent('Publishing...');
  });

  it('reads a TikTok draft sent to the inbox as Sent to TikTok inbox, without a link', async () => {
    const post = createPost({
      status: 'published',
      platforms: [{ id: 'plt_tiktok', name: 'TikTok' }],
      platformPosts: [
        createPlatformPost({
          platformId: 'plt_tiktok',
          platformName: 'TikTok',
          status: 'PUBLISHED',
          permalink: 'https://www.tiktok.com/@someone',
          tiktok: {
            mode: 'inbox',
            privacyLevel: null,
            allowComments: false,
            allowDuet: false,
            allowStitch: false,
            commercial: false,
            yourBrand: false,
            brandedContent: false,
            autoAddMusic: false,
          },
        }),
      ],
    });
    await renderDetails(post);
    const tiktok = within(region('Publish to Platform')).getByRole('listitem', { name: 'TikTok' });
    expect(tiktok).toHaveTextContent('Sent to TikTok inbox');
    expect(tiktok).not.toHaveTextContent(/^Published|View on TikTok/);
  });

  it('reads a post published now to one network as Partially published, the others queued', async () => {
    const due = '2030-03-05T09:30:00.000Z';
    const post = createPost({
      status: 'partially_published',
      scheduledAt: due,
      publishedAt: null,
      platforms: [
        { id: 'plt_x', name: 'X' },
        { id: 'plt_threads', name: 'Threads' },
        { id: 'plt_tiktok', name: 'TikTok' },
      ],
      platformPosts: [
        createPlatformPost({
          status: 'PUBLISHED',
          publishedAt: '2030-03-04T10:00:00.000Z',
          permalink: 'https://x.com/a/status/1',
        }),
        createPlatformPost({
          platformId: 'plt_threads',
          platformName: 'Threads',
          status: 'QUEUED',
          dueAt: due,
        }),
        createPlatformPost({
          platformId: 'plt_tiktok',
          platformName: 'TikTok',
          status: 'FAILED',
          error: 'TikTok refused the video.',
        }),
      ],
    });
    await renderDetails(post);
    expect(detail('Status')).toHaveTextContent(/Partially published\s*Next: Mar 5, 2030/);
    // Not out everywhere yet: no Published At for the post.
    expect(screen.queryByText('Published At')).not.toBeInTheDocument();
    const publish = region('Publish to Platform');
    const row = (name: string) => within(publish).getByRole('listitem', { name });
    expect(row('X')).toHaveTextContent('Published');
    expect(row('Threads')).toHaveTextContent(/Queued for Mar 5, 2030/);
    expect(row('Threads')).not.toHaveTextContent('Publishing...');
    expect(row('TikTok')).toHaveTextContent('Failed');
    expect(within(publish).queryByText('Publishing...')).not.toBeInTheDocument();
    // What is not out yet can still be published now.
    expect(within(row('Threads')).getByRole('checkbox')).toBeEnabled();
  });

  it('says so when no platform is connected, and offers Connect', async () => {
    const post = createPost();
    await renderDetails(post, { integrations: [] });
    const publish = region('Publish to Platform');
    expect(
      await within(publish).findByText(
        'No platforms connected. Please connect platforms in your organization settings to publish posts.',
      ),
    ).toBeInTheDocument();
    expect(within(publish).getByRole('link', { name: 'Connect' })).toHaveAttribute(
      'href',
      '/api/auth/x?orgId=org_1',
    );
    expect(within(publish).getByRole('button', { name: /Publish Now/ })).toBeDisabled();
  });

  it('pages through the media with next, previous, dots and a drag', async () => {
    const post = createPost({
      media: [
        createMedia({ fileName: 'one.jpg' }),
        createMedia({ fileName: 'two.mp4', kind: 'video', mimeType: 'video/mp4' }),
        createMedia({ fileName: 'three.jpg' }),
      ],
    });
    const { user } = await renderDetails(post);
    const media = region('Media');
    const current = () => within(media).getByRole('group', { hidden: false, name: /of 3/ });

    expect(current()).toHaveAccessibleName('1 of 3: one.jpg');
    await user.click(within(media).getByRole('button', { name: 'Next media' }));
    expect(current()).toHaveAccessibleName('2 of 3: two.mp4');
    await user.click(within(media).getByRole('button', { name: 'Previous media' }));
    await user.click(within(media).getByRole('button', { name: 'Previous media' }));
    expect(current()).toHaveAccessibleName('3 of 3: three.jpg');
    await user.click(within(media).getByRole('button', { name: 'Show media 2 of 3' }));
    expect(current()).toHaveAccessibleName('2 of 3: two.mp4');

    const viewport = within(media).getByTestId('carousel-viewport');
    fireEvent.pointerDown(viewport, { pointerId: 1, button: 0, clientX: 300 });
    fireEvent.pointerMove(viewport, { pointerId: 1, clientX: 200 });
    fireEvent.pointerUp(viewport, { pointerId: 1, clientX: 200 });
    expect(current()).toHaveAccessibleName('3 of 3: three.jpg');
  });

  it('deletes after confirming, then goes to the library', async () => {
    const post = createPost();
    const { user, router, server } = await renderDetails(post, {
      routes: { [`DELETE ${postPath(post)}`]: ok(null) },
    });
    await user.click(screen.getByRole('button', { name: 'Delete Post' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this post?' });
    server.on(`GET ${postPath(post)}`, fail(404, 'NOT_FOUND', 'Post not found.'));
    await user.click(within(dialog).getByRole('button', { name: 'Delete Post' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/content'));
    expect(server.count(`DELETE ${postPath(post)}`)).toBe(1);
    expect(await screen.findByText('Post deleted.')).toBeInTheDocument();
  });

  it('says what of a deleted post stays at a network', async () => {
    const post = createPost();
    const notice =
      'Herald could not delete the video it uploaded ahead from the YouTube account Walker, as that account was disconnected: it goes public at the time it was uploaded for unless you delete it there.';
    const { user, server } = await renderDetails(post, {
      routes: { [`DELETE ${postPath(post)}`]: ok({ notice }) },
    });
    await user.click(screen.getByRole('button', { name: 'Delete Post' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this post?' });
    server.on(`GET ${postPath(post)}`, fail(404, 'NOT_FOUND', 'Post not found.'));
    await user.click(within(dialog).getByRole('button', { name: 'Delete Post' }));
    expect(await screen.findByText(`Post deleted. ${notice}`)).toBeInTheDocument();
  });

  it('hides Edit and Delete from members without post:edit and post:delete', async () => {
    await renderDetails(createPost(), { me: createMe({ permissions: ['post:create'] }) });
    expect(screen.queryByRole('link', { name: 'Edit Post' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Post' })).not.toBeInTheDocument();
  });

  it("shows 'Error Loading Post' with Go Back and Try Again", async () => {
    const post = createPost({ content: 'Found at last' });
    const server = mockServer({
      me: createMe(),
      routes: {
        [`GET ${postPath(post)}`]: fail(404, 'NOT_FOUND', 'Post not found.'),
        'GET /organizations/org_1/integrations': ok({ platforms: [] }),
      },
    });
    const { user } = renderApp(`/content/${post.id}`);

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Error Loading Post' })).toBeInTheDocument();
    expect(within(alert).getByText('Post not found.')).toBeInTheDocument();

    server.on(`GET ${postPath(post)}`, ok({ post }));
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Found at last')).toBeInTheDocument();
  });

  it('Go Back leaves for the library when the post was opened directly', async () => {
    mockServer({
      me: createMe(),
      routes: {
        'GET /organizations/org_1/posts/gone': fail(404, 'NOT_FOUND', 'Post not found.'),
        'GET /organizations/org_1/posts': ok({ posts: [] }),
      },
    });
    const { user, router } = renderApp('/content/gone');
    const alert = await screen.findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Go Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/content'));
  });
});

describe('/content/{postId} title', () => {
  it('shows the title under the heading when the post has one', async () => {
    await renderDetails(createPost({ title: 'Winter latte launch', content: 'Our new latte' }));
    expect(screen.getByText('Winter latte launch')).toBeInTheDocument();
  });

  it('shows no title line without one', async () => {
    await renderDetails(createPost({ title: null, content: 'Our new latte' }));
    expect(screen.queryByText('Winter latte launch')).not.toBeInTheDocument();
  });
});
