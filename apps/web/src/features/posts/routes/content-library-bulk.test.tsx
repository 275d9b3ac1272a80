import type { Post } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok, type Handler } from '@/testing/fake-server';
import { createIntegration, integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';
import { createPost, postsListHandler } from '../testing/post-fixtures';

const LIST = 'GET /organizations/org_1/posts';
const BULK_DELETE = 'POST /organizations/org_1/posts/bulk/delete';
const BULK_DRAFT = 'POST /organizations/org_1/posts/bulk/draft';

const accounts = [
  createIntegration({
    id: 'int_x',
    platform: { id: 'plt_x', name: 'X' },
    metadata: { name: 'Lantern', username: 'lantern_x' },
  }),
  createIntegration({
    id: 'int_page',
    platform: { id: 'plt_facebook', name: 'Facebook' },
    metadata: { name: 'Lantern Page', username: null },
  }),
  createIntegration({
    id: 'int_jobs',
    platform: { id: 'plt_facebook', name: 'Facebook' },
    metadata: { name: 'Lantern Jobs', username: null },
  }),
];

function library(): Post[] {
  return [
    createPost({
      id: 'post_launch',
      title: 'Spring launch',
      status: 'scheduled',
      content: 'Doors open at ten',
      platforms: [
        { id: 'plt_x', name: 'X' },
        { id: 'plt_facebook', name: 'Facebook' },
      ],
      scheduledAt: '2030-03-05T23:15:00.000Z',
    }),
    createPost({
      id: 'post_hours',
      status: 'published',
      content: 'Holiday hours',
      publishedAt: '2030-03-01T09:00:00.000Z',
    }),
    createPost({ id: 'post_idea', status: 'draft', content: 'An idea for later' }),
  ];
}

async function renderLibrary({
  me = createMe({ user: { timezone: 'Pacific/Auckland' } }),
  bulk = {} as Record<string, Handler>,
} = {}) {
  let posts = library();
  const server = mockServer({
    me,
    routes: {
      [LIST]: postsListHandler(() => posts),
      ...integrationRoutes({ integrations: accounts }),
      ...bulk,
    },
  });
  const app = renderApp('/content');
  await screen.findByRole('heading', { name: 'Acme Studio Content Library', level: 1 });
  await screen.findByText('Spring launch');
  return { ...app, server, setPosts: (next: Post[]) => (posts = next) };
}

const lastListQuery = (server: ReturnType<typeof mockServer>) =>
  server.requests.filter((r) => `${r.method} ${r.path}` === LIST).at(-1)?.query;

describe('/content as a list', () => {
  it('shows a table of title, text, networks, status and time in the user’s zone, and remembers it', async () => {
    const { user, unmount } = await renderLibrary();
    await user.click(screen.getByRole('button', { name: 'List' }));

    const table = screen.getByRole('table', { name: 'Posts' });
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('list', { name: 'Posts' })).not.toBeInTheDocument();
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Select',
      'Post',
      'Networks',
      'Status',
      'Scheduled / published',
      'Actions',
    ]);
    const launch = within(table).getByRole('row', { name: /Spring launch/ });
    expect(
      within(launch).getByRole('link', { name: /Spring launch.*Doors open at ten/ }),
    ).toHaveAttribute('href', '/content/post_launch');
    expect(within(launch).getByText('Facebook')).toBeInTheDocument();
    expect(within(launch).getByText('Scheduled')).toBeInTheDocument();
    // 23:15 UTC is 12:15 the next day in Auckland.
    expect(within(launch).getByText('Mar 6, 2030 12:15 PM')).toBeInTheDocument();
    const hours = within(table).getByRole('row', { name: /Holiday hours/ });
    expect(within(hours).getByText('Published', { selector: 'span.block' })).toBeInTheDocument();
    expect(within(hours).getByText('Mar 1, 2030 10:00 PM')).toBeInTheDocument();
    // Edit opens the composer for a post not yet out; a published one has none.
    expect(within(launch).getByRole('link', { name: /^Edit Spring launch/ })).toHaveAttribute(
      'href',
      '/content/post_launch/edit',
    );
    expect(within(hours).queryByRole('link', { name: /^Edit / })).not.toBeInTheDocument();

    unmount();
    await renderLibrary();
    expect(screen.getByRole('table', { name: 'Posts' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('/content filters', () => {
  it('sends the network and the account, narrows the accounts to the network, and starts at page 1', async () => {
    const { user, server } = await renderLibrary();
    const network = screen.getByRole('combobox', { name: 'Network' });
    const account = screen.getByRole('combobox', { name: 'Account' });
    await waitFor(() =>
      expect(
        within(network)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['All networks', 'Facebook', 'X']),
    );

    await user.selectOptions(account, 'Lantern (@lantern_x) · X');
    await waitFor(() => expect(lastListQuery(server)?.get('integrationId')).toBe('int_x'));
    expect(lastListQuery(server)?.get('page')).toBe('1');

    // Another network lets the X account go and offers only that network's accounts.
    await user.selectOptions(network, 'Facebook');
    await waitFor(() => expect(lastListQuery(server)?.get('platformId')).toBe('plt_facebook'));
    expect(lastListQuery(server)?.has('integrationId')).toBe(false);
    expect(
      within(account)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All accounts', 'Lantern Page · Facebook', 'Lantern Jobs · Facebook']);

    // Combined with the status tab and the search.
    await user.click(screen.getByRole('tab', { name: 'Scheduled' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search content' }), 'doors');
    await waitFor(() => expect(lastListQuery(server)?.get('q')).toBe('doors'));
    expect(lastListQuery(server)?.get('status')).toBe('scheduled,partially_published');
    expect(lastListQuery(server)?.get('platformId')).toBe('plt_facebook');
  });
});

describe('/content bulk actions', () => {
  it('moves the chosen posts to draft after a confirmation that says how many, with one toast', async () => {
    const answered: unknown[] = [];
    const { user, server, setPosts } = await renderLibrary({
      bulk: {
        [BULK_DRAFT]: ({ body }) => {
          answered.push(body);
          setPosts(library().map((p) => ({ ...p, status: 'draft', scheduledAt: null })));
          return ok({ postIds: ['post_launch', 'post_idea'], count: 2 });
        },
      },
    });
    await user.click(screen.getByRole('checkbox', { name: 'Select Spring launch' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select An idea for later' }));
    const bar = screen.getByRole('toolbar', { name: 'Selected posts' });
    expect(within(bar).getByText('2 posts selected')).toBeInTheDocument();

    // Cancel changes nothing.
    await user.click(within(bar).getByRole('button', { name: 'Move to draft' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move 2 posts to draft?' });
    expect(dialog).toHaveTextContent(
      'The 2 selected posts will not be published until you schedule them again.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.count(BULK_DRAFT)).toBe(0);

    await user.click(within(bar).getByRole('button', { name: 'Move to draft' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Move 2 posts to draft?' })).getByRole(
        'button',
        { name: 'Move to draft' },
      ),
    );
    expect(await screen.findByText('2 posts moved to draft.')).toBeInTheDocument();
    expect(answered).toEqual([{ postIds: ['post_launch', 'post_idea'] }]);
    await waitFor(() =>
      expect(screen.queryByRole('toolbar', { name: 'Selected posts' })).not.toBeInTheDocument(),
    );
    expect(screen.getAllByText('2 posts moved to draft.')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('selects the whole page from the list view, and shows the server’s refusal once', async () => {
    const { user, server } = await renderLibrary({
      bulk: {
        [BULK_DELETE]: () =>
          fail(
            409,
            'CONFLICT',
            "'Holiday hours' is being published right now and cannot be deleted. Nothing was changed: unselect them and try again.",
          ),
      },
    });
    await user.click(screen.getByRole('button', { name: 'List' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    const table = screen.getByRole('table', { name: 'Posts' });
    for (const box of within(table).getAllByRole('checkbox')) expect(box).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 3 posts?' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(
      await screen.findByText(/'Holiday hours' is being published right now and cannot be deleted/),
    ).toBeInTheDocument();
    expect(screen.getAllByText(/is being published right now/)).toHaveLength(1);
    expect(server.requests.find((r) => `${r.method} ${r.path}` === BULK_DELETE)?.body).toEqual({
      postIds: ['post_launch', 'post_hours', 'post_idea'],
    });
    // Nothing changed, so the choice stays for another try.
    expect(screen.getByText('3 posts selected')).toBeInTheDocument();
  });

  it('offers only what the role allows: Move to draft without Delete', async () => {
    const { user } = await renderLibrary({
      me: createMe({ permissions: ['post:create', 'post:edit'] }),
    });
    await user.click(screen.getByRole('checkbox', { name: 'Select Spring launch' }));
    expect(screen.getByRole('button', { name: 'Move to draft' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('offers a member who may only create posts Duplicate alone', async () => {
    const { user } = await renderLibrary({ me: createMe({ permissions: ['post:create'] }) });
    await user.click(screen.getByRole('checkbox', { name: 'Select Spring launch' }));
    const bar = screen.getByRole('toolbar', { name: 'Selected posts' });
    expect(
      within(bar)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Clear', 'Duplicate']);
  });

  it('shows no selection to a member whose role allows no bulk action', async () => {
    await renderLibrary({ me: createMe({ permissions: ['dm:view', 'dm:send'] }) });
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });
});
