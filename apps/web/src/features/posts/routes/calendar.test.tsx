import type { Post } from '@herald/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { wallAt } from '@/lib/zoned-time';
import { createMe } from '@/testing/factories';
import { createIntegration } from '@/testing/platform-fixtures';
import { fail, ok, type FakeReply, type FakeRequest } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';
import { createMedia, createPost, postsListHandler } from '../testing/post-fixtures';

const LIST = 'GET /organizations/org_1/posts';
// A week far enough ahead that every move in it is into the future: Sunday March 3, 2030.
const local = (text: string) => dayjs(text).toISOString();

async function renderCalendar({
  posts = [] as Post[],
  path = '/calendar?date=2030-03-05',
  me = createMe(),
  routes = {} as Record<string, FakeReply>,
} = {}) {
  const server = mockServer({
    me,
    routes: { [LIST]: postsListHandler(() => posts), ...routes },
  });
  for (const post of posts) {
    server.on(`PUT /organizations/org_1/posts/${post.id}`, ({ body }: FakeRequest) => {
      const { scheduledAt } = body as { scheduledAt: string };
      post.scheduledAt = scheduledAt;
      return ok({ post });
    });
  }
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Calendar', level: 1 });
  return { ...app, server };
}

const dayHeader = (name: string) => screen.getByRole('columnheader', { name });
const findDayHeader = (name: string) => screen.findByRole('columnheader', { name });
const puts = (server: ReturnType<typeof mockServer>) =>
  server.requests.filter((r) => r.method === 'PUT').map((r) => r.body);

function fakeDataTransfer() {
  const data = new Map<string, string>();
  const transfer = {
    types: [] as string[],
    effectAllowed: 'all',
    dropEffect: 'none',
    setData(type: string, value: string) {
      data.set(type, value);
      transfer.types = [...data.keys()];
    },
    getData: (type: string) => data.get(type) ?? '',
  };
  return transfer;
}

function drag(chip: HTMLElement, target: HTMLElement) {
  const dataTransfer = fakeDataTransfer();
  fireEvent.dragStart(chip, { dataTransfer });
  fireEvent.dragEnter(target, { dataTransfer });
  fireEvent.dragOver(target, { dataTransfer });
  fireEvent.drop(target, { dataTransfer });
  fireEvent.dragEnd(chip, { dataTransfer });
}

describe('/calendar week', () => {
  it('shows Sunday to Saturday with a post count per day, and asks for that range only', async () => {
    const posts = [
      createPost({ status: 'scheduled', scheduledAt: local('2030-03-05T09:30') }),
      createPost({ status: 'scheduled', scheduledAt: local('2030-03-05T14:00') }),
      createPost({ status: 'published', scheduledAt: local('2030-03-08T08:00') }),
    ];
    const { server } = await renderCalendar({ posts });

    expect(await screen.findByRole('heading', { name: 'Mar 3 – 9, 2030' })).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.getAttribute('aria-label'));
    expect(headers).toEqual([
      'Sunday, March 3',
      'Monday, March 4',
      'Tuesday, March 5',
      'Wednesday, March 6',
      'Thursday, March 7',
      'Friday, March 8',
      'Saturday, March 9',
    ]);
    expect(within(dayHeader('Tuesday, March 5')).getByText('2 posts')).toBeInTheDocument();
    expect(within(dayHeader('Friday, March 8')).getByText('1 post')).toBeInTheDocument();
    expect(
      within(dayHeader('Sunday, March 3')).getByText('No posts scheduled'),
    ).toBeInTheDocument();

    const query = server.requests
      .filter((r) => `${r.method} ${r.path}` === LIST && r.query.has('from'))
      .at(-1)!.query;
    expect(query.get('from')).toBe(local('2030-03-03T00:00'));
    expect(query.get('to')).toBe(local('2030-03-10T00:00'));
    expect(query.has('page')).toBe(false);
  });

  it('places posts by date, then scheduledAt, then createdAt, and drops those without a date', async () => {
    const posts = [
      createPost({ content: 'Scheduled one', scheduledAt: local('2030-03-06T10:00') }),
      createPost({
        status: 'published',
        content: 'Only created',
        createdAt: local('2030-03-07T11:15'),
      }),
      createPost({
        status: 'published',
        content: 'Bad schedule',
        scheduledAt: 'not a date',
        createdAt: local('2030-03-04T08:00'),
      }),
      createPost({ content: 'No date at all', scheduledAt: 'soon', createdAt: 'long ago' }),
    ];
    await renderCalendar({ posts });

    await screen.findByRole('link', { name: /Scheduled one/ });
    expect(within(dayHeader('Wednesday, March 6')).getByText('1 post')).toBeInTheDocument();
    expect(within(dayHeader('Thursday, March 7')).getByText('1 post')).toBeInTheDocument();
    expect(within(dayHeader('Monday, March 4')).getByText('1 post')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /11:15 AM.*Only created/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /No date at all/ })).not.toBeInTheDocument();
  });

  it('keeps undated drafts off the day they were written, in an Unscheduled tray that opens them', async () => {
    const posts = [
      createPost({ content: 'Undated idea', createdAt: local('2030-03-05T10:00') }),
      createPost({ content: 'Dated draft', scheduledAt: local('2030-03-06T12:00') }),
    ];
    const { server } = await renderCalendar({ posts });

    const tray = await screen.findByRole('region', { name: /Unscheduled/ });
    const idea = within(tray).getByRole('link', { name: /No date.*Undated idea/ });
    expect(idea).toHaveAttribute('href', `/content/${posts[0]!.id}`);
    expect(within(tray).queryByText('Dated draft')).toBeNull();
    expect(
      within(dayHeader('Tuesday, March 5')).getByText('No posts scheduled'),
    ).toBeInTheDocument();
    expect(within(dayHeader('Wednesday, March 6')).getByText('1 post')).toBeInTheDocument();
    const asked = server.requests.find((r) => r.query.get('unscheduled') === 'true')!.query;
    expect(asked.get('status')).toBe('draft');
  });

  it('schedules an undated draft dropped on a day (9 AM) or on an hour', async () => {
    const posts = [createPost({ content: 'First idea' }), createPost({ content: 'Second idea' })];
    const { server } = await renderCalendar({ posts });
    const tray = await screen.findByRole('region', { name: /Unscheduled/ });

    drag(within(tray).getByRole('link', { name: /First idea/ }), dayHeader('Thursday, March 7'));
    await waitFor(() => expect(puts(server)).toEqual([{ scheduledAt: local('2030-03-07T09:00') }]));
    await waitFor(() =>
      expect(within(tray).queryByRole('link', { name: /First idea/ })).toBeNull(),
    );

    const slot = screen.getByRole('row', { name: /^3 PM/ }).querySelectorAll<HTMLElement>('td')[6]!; // Saturday
    drag(within(tray).getByRole('link', { name: /Second idea/ }), slot);
    await waitFor(() =>
      expect(puts(server)).toEqual([
        { scheduledAt: local('2030-03-07T09:00') },
        { scheduledAt: local('2030-03-09T15:00') },
      ]),
    );
  });

  it('links Create a post with the day, and moves by week with Today, previous and next', async () => {
    const { user, server } = await renderCalendar();
    await screen.findByRole('heading', { name: 'Mar 3 – 9, 2030' });

    expect(screen.getByRole('link', { name: 'Create a post on Monday, March 4' })).toHaveAttribute(
      'href',
      '/create-post?date=2030-03-04',
    );

    await user.click(screen.getByRole('button', { name: 'Next week' }));
    expect(await screen.findByRole('heading', { name: 'Mar 10 – 16, 2030' })).toBeInTheDocument();
    await waitFor(() =>
      expect(server.requests.at(-1)?.query.get('from')).toBe(local('2030-03-10T00:00')),
    );
    await user.click(screen.getByRole('button', { name: 'Previous week' }));
    await user.click(screen.getByRole('button', { name: 'Previous week' }));
    expect(
      await screen.findByRole('heading', { name: 'Feb 24 – Mar 2, 2030' }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Today' }));
    // Today in the person's zone, not the machine's (London is an hour ahead of UTC in summer).
    const today = wallAt(Date.now(), createMe().user.timezone!);
    expect(
      await screen.findByRole('columnheader', { name: today.format('dddd, MMMM D') }),
    ).toHaveAttribute('aria-current', 'date');
    expect(screen.getAllByRole('columnheader')[0]).toHaveAccessibleName(
      today.subtract(today.day(), 'day').format('dddd, MMMM D'),
    );
  });

  it('opens a day with its posts: time, status, type, 5 thumbnails and +N, and View', async () => {
    const post = createPost({
      status: 'scheduled',
      content: 'Seven pictures',
      scheduledAt: local('2030-03-05T09:30'),
      media: Array.from({ length: 7 }, (_, i) => createMedia({ fileName: `photo-${i + 1}.jpg` })),
    });
    const { user } = await renderCalendar({ posts: [post] });

    await user.click(
      within(await findDayHeader('Tuesday, March 5')).getByRole('button', { name: /Tuesday/ }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Tuesday, March 5, 2030' });
    const card = within(dialog).getByRole('article');
    expect(within(card).getByText('9:30 AM')).toBeInTheDocument();
    expect(within(card).getByText('Scheduled')).toBeInTheDocument();
    expect(within(card).getByText('Carousel')).toBeInTheDocument();
    expect(within(card).getByText('Seven pictures')).toBeInTheDocument();
    expect(within(card).getAllByRole('img', { name: /^photo-\d\.jpg$/ })).toHaveLength(5);
    expect(within(card).getByRole('listitem', { name: '2 more files' })).toHaveTextContent('+2');
    expect(within(card).getByRole('link', { name: /^View/ })).toHaveAttribute(
      'href',
      `/content/${post.id}`,
    );
  });

  it("says 'No posts scheduled for this day' and starts a post at the chosen time", async () => {
    const { user } = await renderCalendar();
    await user.click(
      within(await findDayHeader('Sunday, March 3')).getByRole('button', { name: /Sunday/ }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Sunday, March 3, 2030' });
    expect(within(dialog).getByText('No posts scheduled for this day')).toBeInTheDocument();

    const time = within(dialog).getByLabelText('Time');
    await user.clear(time);
    await user.type(time, '14:30');
    expect(within(dialog).getByRole('link', { name: 'Create a post' })).toHaveAttribute(
      'href',
      '/create-post?date=2030-03-03&time=14%3A30',
    );
  });

  it('drags a scheduled post to another day, keeping its time, and Undo puts it back', async () => {
    const post = createPost({
      status: 'scheduled',
      content: 'Move me',
      scheduledAt: local('2030-03-05T09:30'),
    });
    const { user, server } = await renderCalendar({ posts: [post] });

    drag(await screen.findByRole('link', { name: /Move me/ }), dayHeader('Thursday, March 7'));

    await waitFor(() => expect(puts(server)).toEqual([{ scheduledAt: local('2030-03-07T09:30') }]));
    expect(
      await screen.findByText('Post moved to Thursday, March 7 at 9:30 AM'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(within(dayHeader('Thursday, March 7')).getByText('1 post')).toBeInTheDocument(),
    );

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(puts(server)).toEqual([
        { scheduledAt: local('2030-03-07T09:30') },
        { scheduledAt: local('2030-03-05T09:30') },
      ]),
    );
    expect(await screen.findByText('Move undone.')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(dayHeader('Tuesday, March 5')).getByText('1 post')).toBeInTheDocument(),
    );
  });

  it('drops on an hour of another day: that hour, the same minutes', async () => {
    const post = createPost({ status: 'scheduled', scheduledAt: local('2030-03-05T09:30') });
    const { server } = await renderCalendar({ posts: [post] });
    const chip = await screen.findByRole('link', { name: /9:30 AM/ });

    const slot = screen.getByRole('row', { name: /^3 PM/ }).querySelectorAll<HTMLElement>('td')[6]!; // Saturday
    drag(chip, slot);

    await waitFor(() => expect(puts(server)).toEqual([{ scheduledAt: local('2030-03-09T15:30') }]));
  });

  it('refuses a drop into the past, and only scheduled posts can be dragged', async () => {
    const posts = [
      createPost({ status: 'scheduled', content: 'Late', scheduledAt: local('2020-03-05T09:30') }),
      createPost({ status: 'draft', content: 'Draft', scheduledAt: local('2020-03-06T09:30') }),
    ];
    const { server } = await renderCalendar({ posts, path: '/calendar?date=2020-03-05' });

    const late = await screen.findByRole('link', { name: /Late/ });
    expect(late).toHaveAttribute('draggable', 'true');
    expect(screen.getByRole('link', { name: /Draft/ })).toHaveAttribute('draggable', 'false');

    drag(late, dayHeader('Wednesday, March 4'));
    expect(
      await screen.findByText("A post can't be moved into the past. Choose a later day or time."),
    ).toBeInTheDocument();
    expect(puts(server)).toEqual([]);
  });

  it('does not let members without post:edit drag', async () => {
    const posts = [createPost({ status: 'scheduled', scheduledAt: local('2030-03-05T09:30') })];
    await renderCalendar({ posts, me: createMe({ permissions: ['post:create'] }) });
    expect(await screen.findByRole('link', { name: /9:30 AM/ })).toHaveAttribute(
      'draggable',
      'false',
    );
    expect(screen.getAllByRole('link', { name: /^Create a post on/ })).toHaveLength(7);
  });

  it('offers no Create a post to members without post:create', async () => {
    const { user } = await renderCalendar({ me: createMe({ permissions: ['post:edit'] }) });
    await findDayHeader('Sunday, March 3');
    expect(screen.queryByRole('link', { name: /^Create a post/ })).not.toBeInTheDocument();
    await user.click(within(dayHeader('Sunday, March 3')).getByRole('button', { name: /Sunday/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Sunday, March 3, 2030' });
    expect(within(dialog).queryByRole('link', { name: 'Create a post' })).not.toBeInTheDocument();
  });

  it('moves a post from the day list with "Move to…", without dragging', async () => {
    const post = createPost({ status: 'scheduled', scheduledAt: local('2030-03-05T09:30') });
    const { user, server } = await renderCalendar({ posts: [post] });
    await user.click(
      within(await findDayHeader('Tuesday, March 5')).getByRole('button', { name: /Tuesday/ }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Tuesday, March 5, 2030' });

    fireEvent.change(within(dialog).getByLabelText('Move to…'), {
      target: { value: '2030-03-12T18:45' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));

    await waitFor(() => expect(puts(server)).toEqual([{ scheduledAt: local('2030-03-12T18:45') }]));
    expect(
      await screen.findByText('Post moved to Tuesday, March 12 at 6:45 PM'),
    ).toBeInTheDocument();
  });

  it("says 'Error Loading Posts' with the reason, and Try Again reloads", async () => {
    const server = mockServer({
      me: createMe(),
      routes: { [LIST]: fail(503, 'UNAVAILABLE', 'The server is restarting.') },
    });
    const { user } = renderApp('/calendar?date=2030-03-05');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error Loading Posts')).toBeInTheDocument();
    expect(
      within(alert).getByText('Failed to load posts. The server is restarting.'),
    ).toBeInTheDocument();

    server.on(
      LIST,
      postsListHandler(() => []),
    );
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(
      await screen.findByRole('columnheader', { name: 'Sunday, March 3' }),
    ).toBeInTheDocument();
  });
});

describe('/calendar time zone', () => {
  const tokyoOrganization = ok({
    organization: {
      id: 'org_1',
      name: 'Acme Studio',
      defaultTimeZone: 'Asia/Tokyo',
      requirePostApproval: false,
      postApprovalRoleIds: [],
      ownerUserId: null,
      branding: { logoUrl: null, color: null },
      createdAt: '2026-01-10T09:00:00.000Z',
    },
  });

  it("places posts on the organization's days, whatever the member's own zone, and names it", async () => {
    // 13:30 UTC: Tuesday 22:30 in Tokyo, already Wednesday 02:30 in Auckland.
    const posts = [createPost({ status: 'scheduled', scheduledAt: '2030-03-05T13:30:00.000Z' })];
    await renderCalendar({
      posts,
      me: createMe({ user: { timezone: 'Pacific/Auckland' } }),
      routes: { 'GET /organizations/org_1': tokyoOrganization },
    });
    expect(
      await screen.findByText("Times in Asia/Tokyo (the organization's time zone)"),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(within(dayHeader('Tuesday, March 5')).getByText('1 post')).toBeInTheDocument(),
    );
    expect(
      within(dayHeader('Wednesday, March 6')).getByText('No posts scheduled'),
    ).toBeInTheDocument();
  });

  it("uses the member's own zone when the organization has none, and says so", async () => {
    const posts = [createPost({ status: 'scheduled', scheduledAt: '2030-03-05T13:30:00.000Z' })];
    await renderCalendar({ posts, me: createMe({ user: { timezone: 'Pacific/Auckland' } }) });
    expect(
      await screen.findByText(
        'Times in Pacific/Auckland (your time zone; the organization has none set)',
      ),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(within(dayHeader('Wednesday, March 6')).getByText('1 post')).toBeInTheDocument(),
    );
  });
});

describe('/calendar month', () => {
  it('shows six weeks from the Sunday before the 1st, and a drop on a day keeps the time', async () => {
    const post = createPost({
      status: 'scheduled',
      content: 'Monthly',
      scheduledAt: local('2030-03-05T16:10'),
    });
    const { user, server } = await renderCalendar({ posts: [post] });
    await user.click(await screen.findByRole('button', { name: 'Month' }));

    expect(await screen.findByRole('heading', { name: 'March 2030' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: /March 2030/ });
    expect(within(table).getAllByRole('cell')).toHaveLength(42);
    // March 1, 2030 is a Friday: the grid starts on Sunday, February 24.
    expect(within(table).getAllByRole('cell')[0]).toHaveTextContent(/^24/);
    expect(
      within(table).getByRole('button', { name: 'Tuesday, March 5, 1 post' }),
    ).toBeInTheDocument();

    const target = within(table)
      .getByRole('button', { name: 'Wednesday, March 20, no posts' })
      .closest('td')!;
    drag(within(table).getByRole('link', { name: /Monthly/ }), target);
    await waitFor(() => expect(puts(server)).toEqual([{ scheduledAt: local('2030-03-20T16:10') }]));
  });
});

describe('/calendar open queue slots', () => {
  const accounts = [
    createIntegration({ id: 'int_ada', metadata: { name: 'Ada Posts' } }),
    createIntegration({
      id: 'int_cafe',
      platform: { id: 'plt_facebook', name: 'Facebook' },
      metadata: { name: 'Harbor Cafe', username: null },
    }),
  ];
  const slotRoutes = {
    'GET /organizations/org_1/queue/slots': ok({
      slots: [
        { at: local('2030-03-05T09:00'), integrationIds: ['int_ada'] },
        { at: local('2030-03-05T15:00'), integrationIds: ['int_cafe'] },
      ],
    }),
    'GET /organizations/org_1/integrations': ok({ platforms: accounts }),
  };

  it('say whose queue each open slot of the week is', async () => {
    await renderCalendar({ routes: slotRoutes });

    const nine = await screen.findByText(/9:00 AM/, { selector: 'span[title]' });
    expect(nine).toHaveTextContent('Empty queue slot at 9:00 AM · Ada Posts (X) for Ada Posts (X)');
    expect(nine).toHaveAttribute('title', 'Open queue slot at 9:00 AM for Ada Posts (X)');
    expect(screen.getByText(/3:00 PM/, { selector: 'span[title]' })).toHaveTextContent(
      /Harbor Cafe \(Facebook\)/,
    );
  });

  it('name the accounts of a day’s open slots in the month', async () => {
    await renderCalendar({ path: '/calendar?view=month&date=2030-03-05', routes: slotRoutes });

    const line = await screen.findByText(/^2 open queue slots · 2 accounts/);
    expect(line).toHaveAttribute(
      'title',
      '2 open queue slots for Ada Posts (X), Harbor Cafe (Facebook)',
    );
    expect(line).toHaveTextContent('(Ada Posts (X), Harbor Cafe (Facebook))');
  });
});

describe('/calendar chips', () => {
  it('name a post by its title when it has one, keeping the text in the tooltip', async () => {
    const posts = [
      createPost({
        title: 'Winter latte launch',
        content: 'Our new latte is here',
        scheduledAt: local('2030-03-06T10:00'),
      }),
      createPost({ content: 'Untitled post', scheduledAt: local('2030-03-07T10:00') }),
    ];
    await renderCalendar({ posts });

    const titled = await screen.findByRole('link', { name: /Winter latte launch/ });
    expect(titled).not.toHaveTextContent('Our new latte is here');
    expect(titled.getAttribute('title')).toContain('Winter latte launch · Our new latte is here');
    expect(screen.getByRole('link', { name: /Untitled post/ })).toBeInTheDocument();
  });

  it('show the marks of the networks a post goes to, and name its accounts', async () => {
    const posts = [
      createPost({
        content: 'Two networks',
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
        scheduledAt: local('2030-03-06T10:00'),
      }),
    ];
    await renderCalendar({ posts });

    const chip = await screen.findByRole('link', {
      name: /Two networks.*on Ada Posts \(X\), Harbor Cafe \(Facebook\)/,
    });
    expect(chip.querySelectorAll('svg')).toHaveLength(2);
    expect(chip.getAttribute('title')).toContain('Ada Posts (X), Harbor Cafe (Facebook)');
  });

  it('keep a post for many networks to three places: two marks and "+N" for the rest', async () => {
    const names = ['X', 'Facebook', 'Instagram', 'Threads', 'LinkedIn'];
    const posts = [
      createPost({
        content: 'Everywhere',
        platforms: names.map((name) => ({ id: `plt_${name}`, name })),
        accounts: [],
        scheduledAt: local('2030-03-06T10:00'),
      }),
    ];
    await renderCalendar({ posts });

    const chip = await screen.findByRole('link', { name: /Everywhere/ });
    expect(chip.querySelectorAll('svg')).toHaveLength(2);
    expect(within(chip).getByTestId('more-networks')).toHaveTextContent('+3');
  });
});

/** Makes the window as narrow as a phone (the calendar asks through matchMedia). */
function phoneWidth() {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query.includes('max-width'),
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}

describe('/calendar agenda', () => {
  afterEach(() => vi.restoreAllMocks());

  const weekPosts = () => [
    createPost({
      title: 'Winter latte launch',
      status: 'scheduled',
      content: 'Our new latte is here',
      scheduledAt: local('2030-03-05T09:30'),
    }),
    createPost({
      content: 'Early bird',
      status: 'published',
      platforms: [{ id: 'plt_fb', name: 'Facebook' }],
      scheduledAt: local('2030-03-05T07:00'),
    }),
    createPost({ content: 'Saturday special', scheduledAt: local('2030-03-09T18:45') }),
    createPost({ content: 'Next week', scheduledAt: local('2030-03-10T08:00') }),
  ];

  it('shows a phone all seven days of the month: compact cells with dots and counts that open the day', async () => {
    phoneWidth();
    const { user } = await renderCalendar({
      posts: weekPosts(),
      path: '/calendar?view=month&date=2030-03-05',
    });

    const table = await screen.findByRole('table', { name: 'Posts of March 2030, by day' });
    // No minimum width wider than a phone: the seven columns share its width.
    expect(table.className).not.toMatch(/min-w-/);
    expect(within(table).getAllByRole('columnheader')).toHaveLength(7);
    // Cells hold buttons, not post chips that would need a wide cell.
    expect(within(table).queryByRole('link', { name: /Winter latte launch/ })).toBeNull();
    const tuesday = within(table).getByRole('button', { name: 'Tuesday, March 5, 2 posts' });
    expect(within(table).getByRole('button', { name: 'Saturday, March 9, 1 post' })).toBeVisible();

    await user.click(tuesday);
    const dialog = await screen.findByRole('dialog', { name: /Tuesday, March 5/ });
    expect(within(dialog).getByText(/Our new latte is here/)).toBeInTheDocument();
  });

  it('is what a phone opens: the days of the week with their posts in time order, networks and status', async () => {
    phoneWidth();
    await renderCalendar({ posts: weekPosts() });

    const agenda = await screen.findByRole('list', { name: 'Agenda' });
    expect(screen.getByRole('button', { name: 'Agenda' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByText(/Times in /)).toBeInTheDocument();

    const days = within(agenda).getAllByRole('region');
    expect(days.map((d) => d.getAttribute('aria-label'))).toEqual([
      'Sunday, March 3',
      'Monday, March 4',
      'Tuesday, March 5',
      'Wednesday, March 6',
      'Thursday, March 7',
      'Friday, March 8',
      'Saturday, March 9',
    ]);
    const tuesday = within(agenda).getByRole('region', { name: 'Tuesday, March 5' });
    expect(within(tuesday).getByText('2 posts')).toBeInTheDocument();
    const links = within(tuesday).getAllByRole('link', { name: /AM/ });
    expect(links.map((l) => l.textContent)).toEqual([
      '7:00 AMEarly bird, on Facebook, Published',
      '9:30 AMWinter latte launch, on X, Scheduled',
    ]);
    expect(links[1]).toHaveAttribute('href', expect.stringMatching(/^\/content\/post_/));
    const saturday = within(agenda).getByRole('region', { name: 'Saturday, March 9' });
    expect(within(saturday).getByRole('link', { name: /6:45 PM.*Saturday special/ })).toBeVisible();
    expect(within(agenda).getByRole('region', { name: 'Monday, March 4' })).toHaveTextContent(
      'No posts',
    );
    expect(screen.queryByText('Next week')).not.toBeInTheDocument();
  });

  it('moves week by week, and opens a day with its list', async () => {
    const { user, server } = await renderCalendar({
      posts: weekPosts(),
      path: '/calendar?date=2030-03-05&view=agenda',
    });
    await screen.findByRole('list', { name: 'Agenda' });

    await user.click(screen.getByRole('button', { name: 'Next week' }));
    expect(await screen.findByRole('heading', { name: 'Mar 10 – 16, 2030' })).toBeInTheDocument();
    await waitFor(() =>
      expect(server.requests.at(-1)?.query.get('from')).toBe(local('2030-03-10T00:00')),
    );
    const sunday = await screen.findByRole('region', { name: 'Sunday, March 10' });
    expect(within(sunday).getByRole('link', { name: /8:00 AM.*Next week/ })).toBeVisible();

    await user.click(within(sunday).getByRole('button', { name: /Sunday, March 10/ }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });

  it('remembers the view chosen on a phone, apart from the one of a larger screen', async () => {
    phoneWidth();
    const { user, unmount } = await renderCalendar({ posts: weekPosts() });
    await screen.findByRole('list', { name: 'Agenda' });
    await user.click(screen.getByRole('button', { name: 'Month' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    unmount();

    const again = await renderCalendar({ posts: weekPosts() });
    expect(await screen.findByRole('button', { name: 'Month' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    again.unmount();

    vi.restoreAllMocks();
    await renderCalendar({ posts: weekPosts() });
    expect(await screen.findByRole('button', { name: 'Week' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });
});
