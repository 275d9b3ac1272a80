import type { Post } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';
import {
  createMedia,
  createPlatformPost,
  createPost,
  postsListHandler,
} from '../testing/post-fixtures';

const LIST = 'GET /organizations/org_1/posts';

function manyPosts(count: number, overrides: Partial<Post> = {}): Post[] {
  return Array.from({ length: count }, (_, i) =>
    createPost({ content: `Post number ${i + 1}`, ...overrides }),
  );
}

async function renderLibrary({ posts = [] as Post[], me = createMe(), path = '/content' } = {}) {
  const server = mockServer({ me, routes: { [LIST]: postsListHandler(() => posts) } });
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Acme Studio Content Library', level: 1 });
  return { ...app, server };
}

const listRequests = (server: ReturnType<typeof mockServer>) =>
  server.requests.filter((r) => `${r.method} ${r.path}` === LIST).map((r) => r.query);
const lastListQuery = (server: ReturnType<typeof mockServer>) => listRequests(server).at(-1);
const cards = () => within(screen.getByRole('list', { name: 'Posts' })).getAllByRole('article');

describe('/content', () => {
  it('asks the server for the first page of 8 and shows each post as a card', async () => {
    const post = createPost({
      status: 'scheduled',
      content: { default: 'Spring launch', plt_x: 'Spring launch on X' },
      platforms: [
        { id: 'plt_x', name: 'X' },
        { id: 'plt_facebook', name: 'Facebook' },
      ],
      media: [createMedia({ fileName: 'cover.jpg', thumbnailUrl: 'https://cdn/cover-t.jpg' })],
      createdAt: '2026-03-02T12:00:00.000Z',
      scheduledAt: '2026-04-10T12:00:00.000Z',
    });
    const { server } = await renderLibrary({ posts: [post, createPost({ content: '' })] });

    const [first, second] = await screen.findAllByRole('article');
    expect(lastListQuery(server)?.toString()).toBe('page=1&pageSize=8');
    expect(within(first!).getByText('Scheduled')).toBeInTheDocument();
    expect(within(first!).getByRole('img', { name: 'X' })).toBeInTheDocument();
    expect(within(first!).getByRole('img', { name: 'Facebook' })).toBeInTheDocument();
    expect(within(first!).getByRole('img', { name: 'cover.jpg' })).toHaveAttribute(
      'src',
      'https://cdn/cover-t.jpg',
    );
    expect(within(first!).getByRole('link', { name: 'Spring launch' })).toHaveAttribute(
      'href',
      `/content/${post.id}`,
    );
    expect(within(first!).getByText('Mar 2, 2026')).toBeInTheDocument();
    expect(within(first!).getByText(/^Apr 10, 2026/)).toBeInTheDocument();
    expect(within(second!).getByRole('link', { name: 'No content' })).toBeInTheDocument();
    expect(within(second!).getByText('Not scheduled')).toBeInTheDocument();
  });

  it('shows a partially published post with its next time, or when it last went out', async () => {
    const waiting = createPost({
      status: 'partially_published',
      content: 'Half out, more tomorrow',
      scheduledAt: '2030-04-10T12:00:00.000Z',
      platformPosts: [
        createPlatformPost({ status: 'PUBLISHED', publishedAt: '2030-04-09T08:00:00.000Z' }),
        createPlatformPost({ status: 'QUEUED', dueAt: '2030-04-10T12:00:00.000Z' }),
      ],
    });
    const settled = createPost({
      status: 'partially_published',
      content: 'Out on X, failed elsewhere',
      scheduledAt: null,
      publishedAt: null,
      platformPosts: [
        createPlatformPost({ status: 'PUBLISHED', publishedAt: '2026-02-03T12:00:00.000Z' }),
        createPlatformPost({ status: 'FAILED', error: 'Refused.' }),
      ],
    });
    await renderLibrary({ posts: [waiting, settled] });
    const [first, second] = await screen.findAllByRole('article');
    expect(within(first!).getByText('Partially published')).toBeInTheDocument();
    expect(within(first!).getByText('Next')).toBeInTheDocument();
    expect(within(first!).getByText(/^Apr 10, 2030/)).toBeInTheDocument();
    expect(within(second!).getByText('Published')).toBeInTheDocument();
    expect(within(second!).getByText(/^Feb 3, 2026/)).toBeInTheDocument();
    expect(within(second!).queryByText('Not scheduled')).not.toBeInTheDocument();
  });

  it('pages with Previous and Next, saying "Page X of Y"', async () => {
    const { user, server } = await renderLibrary({ posts: manyPosts(19) });

    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    expect(cards()).toHaveLength(8);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
    expect(lastListQuery(server)?.get('page')).toBe('2');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 3 of 3')).toBeInTheDocument();
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
  });

  it('sends the tab as status and goes back to page 1', async () => {
    const posts = [...manyPosts(10), ...manyPosts(2, { status: 'draft', content: 'A draft' })];
    posts.slice(0, 10).forEach((p) => (p.status = 'published'));
    const { user, server } = await renderLibrary({ posts, path: '/content?page=2' });

    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Drafts' }));

    await waitFor(() => expect(lastListQuery(server)?.get('status')).toBe('draft'));
    expect(lastListQuery(server)?.get('page')).toBe('1');
    expect(await screen.findByText('Page 1 of 1')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Drafts' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('tab', { name: 'Published' }));
    await waitFor(() =>
      expect(lastListQuery(server)?.get('status')).toBe('published,partially_published'),
    );
    await user.click(screen.getByRole('tab', { name: 'Scheduled' }));
    await waitFor(() =>
      expect(lastListQuery(server)?.get('status')).toBe('scheduled,partially_published'),
    );
    await user.click(screen.getByRole('tab', { name: 'All Posts' }));
    await waitFor(() => expect(lastListQuery(server)?.has('status')).toBe(false));
  });

  it('moves between tabs with the arrow keys', async () => {
    const { user } = await renderLibrary({ posts: manyPosts(1) });
    await user.click(screen.getByRole('tab', { name: 'All Posts' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Published' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Published' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Drafts' })).toHaveFocus();
  });

  it('sends the search to the server once typing pauses, from page 1', async () => {
    const posts = [...manyPosts(9), createPost({ content: 'The Spring launch is here' })];
    const { user, server } = await renderLibrary({ posts });
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 2');
    const before = listRequests(server).length;

    await user.type(screen.getByRole('searchbox', { name: 'Search content' }), 'spring');

    await waitFor(() => expect(lastListQuery(server)?.get('q')).toBe('spring'));
    // One search for the word, not one per letter.
    expect(listRequests(server).filter((q) => q.has('q'))).toHaveLength(1);
    expect(listRequests(server).length).toBe(before + 1);
    expect(lastListQuery(server)?.get('page')).toBe('1');
    expect(await screen.findByRole('link', { name: 'The Spring launch is here' })).toBeVisible();
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument();
  });

  it("says 'No Posts Match Your Search' when the search finds nothing", async () => {
    const { user } = await renderLibrary({ posts: manyPosts(3) });
    await screen.findByText('Page 1 of 1');
    await user.type(screen.getByRole('searchbox', { name: 'Search content' }), 'nothing like it');
    expect(
      await screen.findByRole('heading', { name: 'No Posts Match Your Search' }),
    ).toBeInTheDocument();
  });

  it("names the empty tab: 'No Drafts Yet', 'No Posts Yet'", async () => {
    const { user } = await renderLibrary({ posts: [] });
    expect(await screen.findByRole('heading', { name: 'No Posts Yet' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Drafts' }));
    expect(await screen.findByRole('heading', { name: 'No Drafts Yet' })).toBeInTheDocument();
    expect(screen.queryByText(/Page \d+ of/)).not.toBeInTheDocument();
  });

  it('explains a failure with the server message, and Try Again reloads', async () => {
    const server = mockServer({
      me: createMe(),
      routes: { [LIST]: fail(500, 'INTERNAL', 'The database is resting.') },
    });
    const { user } = renderApp('/content');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Oops! Something went wrong.')).toBeInTheDocument();
    expect(within(alert).getByText('The database is resting.')).toBeInTheDocument();

    server.on(
      LIST,
      postsListHandler(() => manyPosts(2)),
    );
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
  });

  it("falls back to 'Failed to fetch posts.' without a server message", async () => {
    // An answer this app cannot read has no sentence for the user.
    mockServer({
      me: createMe(),
      routes: { [LIST]: { status: 200, body: { status: 'success', data: {} } } },
    });
    renderApp('/content');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to fetch posts.')).toBeInTheDocument();
  });

  it('offers Create Post, and the floating button for small screens, to members who may create', async () => {
    await renderLibrary({ posts: [] });
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Create Post' })).toHaveAttribute(
      'href',
      '/create-post',
    );
    expect(within(main).getByRole('link', { name: 'Create a new post' })).toHaveAttribute(
      'href',
      '/create-post',
    );
  });

  it('hides the create buttons from members without post:create', async () => {
    await renderLibrary({ posts: [], me: createMe({ permissions: ['dm:view'] }) });
    await screen.findByRole('heading', { name: 'No Posts Yet' });
    const main = screen.getByRole('main');
    expect(within(main).queryByRole('link', { name: 'Create Post' })).not.toBeInTheDocument();
    expect(within(main).queryByRole('link', { name: 'Create a new post' })).not.toBeInTheDocument();
  });
});

describe("/content times in the user's zone, not the browser's", () => {
  const machineZone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'America/New_York';
  });
  afterAll(() => {
    process.env.TZ = machineZone;
  });

  it('writes created and scheduled times in the saved zone and names it', async () => {
    const post = createPost({
      status: 'scheduled',
      createdAt: '2030-03-05T20:00:00.000Z', // March 6th in Auckland, March 5th in New York
      scheduledAt: '2030-03-05T23:15:00.000Z',
    });
    await renderLibrary({
      posts: [post],
      me: createMe({ user: { timezone: 'Pacific/Auckland' } }),
    });
    const [card] = await screen.findAllByRole('article');
    expect(
      screen.getByText('Times in Pacific/Auckland (your time zone; the organization has none set)'),
    ).toBeInTheDocument();
    expect(within(card!).getByText('Mar 6, 2030')).toBeInTheDocument();
    expect(within(card!).getByText('Mar 6, 2030 12:15 PM')).toBeInTheDocument();
  });
});

describe('/content cards name the post and when it went out', () => {
  it('shows the title above the text when the post has one', async () => {
    await renderLibrary({
      posts: [createPost({ title: 'Winter latte launch', content: 'Our new latte is here' })],
    });

    const [card] = await screen.findAllByRole('article');
    const link = within(card!).getByRole('link', {
      name: 'Winter latte launch Our new latte is here',
    });
    expect(within(link).getByText('Winter latte launch')).toHaveClass('font-semibold');
  });

  it("says Published with the time it went out in the user's zone, not Scheduled for", async () => {
    const published = createPost({
      status: 'published',
      content: 'Out already',
      scheduledAt: '2026-04-01T12:00:00.000Z',
      publishedAt: '2026-04-10T12:00:00.000Z',
    });
    await renderLibrary({
      posts: [published],
      me: createMe({ user: { timezone: 'Pacific/Auckland' } }),
    });

    const [card] = await screen.findAllByRole('article');
    expect(within(card!).queryByText('Scheduled for')).not.toBeInTheDocument();
    const when = within(card!).getByText('Published', { selector: 'dt' });
    // 12:00 UTC on Apr 10 is past midnight in Auckland (UTC+12): Apr 11 there.
    expect(when.nextElementSibling?.textContent).toMatch(/^Apr 11, 2026/);
  });
});
