import type {
  AnalyticsBestTimes,
  AnalyticsOverview,
  AnalyticsSettings,
  Integration,
  LinkClicks,
} from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { deferred, fail, ok, type FakeReply, type Handler } from '@/testing/fake-server';
import { createIntegration } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';
import { X_OFF_NOTE } from '../components/empty-state';

const ORG = 'org_1';
const IG = '11111111-1111-4111-8111-111111111111';
const X = '22222222-2222-4222-8222-222222222222';
const POST = '33333333-3333-4333-8333-333333333333';

const kpi = (value: number | null, previous: number | null, change: number | null) => ({
  value,
  previous,
  change,
});

function createOverview(overrides: Partial<AnalyticsOverview> = {}): AnalyticsOverview {
  return {
    timezone: 'Europe/London',
    range: {
      from: '2026-03-01',
      to: '2026-03-07',
      previousFrom: '2026-02-22',
      previousTo: '2026-02-28',
      days: 7,
    },
    engagementFormula:
      'Engagement rate = interactions ÷ views, or ÷ reach where a network gives no views.',
    kpis: {
      views: kpi(800, 250, 2.2),
      reach: kpi(null, null, null),
      interactions: kpi(40, 50, -0.2),
      engagementRate: kpi(0.05, 0.08, -0.375),
      followersGained: kpi(50, 0, null),
      postsPublished: kpi(3, 1, 2),
    },
    daily: [
      { day: '2026-03-01', views: null, interactions: null },
      { day: '2026-03-02', views: 100, interactions: 10 },
      { day: '2026-03-03', views: 700, interactions: 30 },
    ],
    followers: [
      {
        integrationId: IG,
        name: 'Studio IG',
        platform: 'Instagram',
        points: [
          { day: '2026-03-01', followers: 1010 },
          { day: '2026-03-07', followers: 1050 },
        ],
        gained: 50,
      },
    ],
    networks: [
      {
        platformId: X,
        platform: 'X',
        posts: 2,
        views: 500,
        reach: null,
        interactions: 10,
        engagementRate: 0.02,
      },
    ],
    topPosts: [
      {
        source: 'herald',
        postId: POST,
        targetId: '44444444-4444-4444-8444-444444444444',
        title: null,
        text: 'Spring launch',
        platform: 'Instagram',
        accountName: 'Studio IG',
        publishedAt: '2026-03-02T10:00:00Z',
        permalink: null,
        views: 300,
        reach: 200,
        interactions: 30,
        engagementRate: 0.1,
        takenAt: '2026-03-03T10:00:00Z',
        thumbnailUrl: 'https://api.example.com/media/a/b.jpg?exp=1&sig=s',
      },
      {
        source: 'external',
        postId: null,
        targetId: '55555555-5555-4555-8555-555555555555',
        title: null,
        text: 'Made in the Instagram app',
        platform: 'Instagram',
        accountName: 'Studio IG',
        publishedAt: '2026-03-02T12:00:00Z',
        permalink: 'https://www.instagram.com/p/abc123/',
        views: 250,
        reach: 180,
        interactions: 20,
        engagementRate: 0.08,
        takenAt: '2026-03-03T10:00:00Z',
        thumbnailUrl: null,
      },
    ],
    accounts: [
      {
        integrationId: X,
        name: 'Studio X',
        platform: 'X',
        isStale: true,
        staleReason: 'X refused the read: rate limited.',
        staleSince: '2026-03-06T00:00:00Z',
        lastSuccessAt: null,
      },
    ],
    status: {
      connectedAccounts: 2,
      publishedTargets: 4,
      hasReadings: true,
      firstCollectionAt: null,
    },
    ...overrides,
  };
}

const bestTimes: AnalyticsBestTimes = {
  timezone: 'Asia/Tokyo',
  posts: 3,
  engagementFormula: 'Engagement rate = interactions ÷ views.',
  cells: [
    { weekday: 1, hour: 8, posts: 2, engagementRate: 0.075, interactionsPerPost: 15 },
    { weekday: 4, hour: 14, posts: 1, engagementRate: null, interactionsPerPost: null },
  ],
};

const settings: AnalyticsSettings = {
  xEnabled: false,
  xMonthlyReadBudget: 1000,
  month: '2026-03',
  xReadsUsed: 0,
  xCostPerReadUsd: 0.005,
  refreshedAt: null,
  nextRefreshAt: null,
};

async function renderAnalytics({
  overview = createOverview(),
  path = '/analytics',
  me = createMe(),
  integrations = [createIntegration({ platform: { id: X, name: 'X' } })],
  analyticsSettings = settings,
  refresh = fail(500, 'INTERNAL', 'No refresh in this test.'),
  linkClicks = { targets: [] },
}: {
  linkClicks?: LinkClicks;
  integrations?: Integration[];
  overview?: AnalyticsOverview | Handler | FakeReply;
  path?: string;
  me?: ReturnType<typeof createMe>;
  analyticsSettings?: AnalyticsSettings | Handler;
  refresh?: Handler | FakeReply;
} = {}) {
  const server = mockServer({
    me,
    routes: {
      [`GET /organizations/${ORG}/integrations`]: ok({ platforms: integrations }),
      [`GET /organizations/${ORG}/analytics/settings`]:
        typeof analyticsSettings === 'function' ? analyticsSettings : ok(analyticsSettings),
      [`POST /organizations/${ORG}/analytics/refresh`]: refresh,
      [`PUT /organizations/${ORG}/analytics/settings`]: (request) =>
        ok({ ...settings, ...(request.body as object) }),
      [`GET /organizations/${ORG}/analytics/overview`]:
        'kpis' in overview ? ok(overview) : overview,
      [`GET /organizations/${ORG}/analytics/best-times`]: ok(bestTimes),
      [`GET /organizations/${ORG}/analytics/link-clicks`]: ok(linkClicks),
    },
  });
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Analytics', level: 1 });
  return { ...app, server };
}

const figure = (label: string) =>
  within(screen.getByRole('region', { name: 'Key figures' })).getByText(label, { exact: true })
    .parentElement!;

describe('/analytics', () => {
  it('lists the clicks on short links per post and account, before any reading too', async () => {
    const target = (id: string, platform: string, accountName: string, clicks: number[]) => ({
      postId: '44444444-4444-4444-8444-444444444444',
      targetId: id,
      title: null,
      text: 'Spring menu is out',
      platform,
      accountName,
      publishedAt: '2026-03-02T10:00:00Z',
      links: clicks.map((n, i) => ({
        shortUrl: `http://localhost:3000/l/${platform.slice(0, 1)}Code${i}abcd`,
        url: `https://cafe.test/${i}?utm_source=${platform.toLowerCase()}`,
        clicks: n,
      })),
      clicks: clicks.reduce((a, b) => a + b, 0),
    });
    const { server } = await renderAnalytics({
      overview: createOverview({
        status: {
          connectedAccounts: 1,
          publishedTargets: 2,
          hasReadings: false,
          firstCollectionAt: '2026-03-02T10:10:00Z',
        },
      }),
      linkClicks: {
        targets: [
          target('55555555-5555-4555-8555-555555555555', 'X', 'Cafe on X', [2, 1]),
          target('66666666-6666-4666-8666-666666666666', 'Threads', 'cafe.threads', [0]),
        ],
      },
    });
    const section = await screen.findByRole('region', { name: 'Short link clicks' });
    const rows = within(section).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Cafe on X');
    expect(within(rows[1]!).getAllByRole('cell').at(-1)).toHaveTextContent(/^3$/);
    expect(rows[1]).toHaveTextContent('http://localhost:3000/l/XCode0abcd · 2 clicks');
    expect(rows[1]).toHaveTextContent('http://localhost:3000/l/XCode1abcd · 1 click');
    expect(within(rows[2]!).getAllByRole('cell').at(-1)).toHaveTextContent(/^0$/);
    expect(within(rows[1]!).getByRole('link', { name: 'Spring menu is out' })).toHaveAttribute(
      'href',
      '/content/44444444-4444-4444-8444-444444444444',
    );
    const request = server.requests.find((r) => r.path.endsWith('/analytics/link-clicks'))!;
    expect(request.query.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request.query.has('sort')).toBe(false);
  });

  it('shows no short-link table when no post of the range has short links', async () => {
    await renderAnalytics();
    await screen.findByRole('region', { name: 'Key figures' });
    expect(screen.queryByRole('region', { name: 'Short link clicks' })).toBeNull();
  });

  it('shows the KPIs with their change, and "No data" for a metric no network gave', async () => {
    await renderAnalytics();
    await screen.findByRole('region', { name: 'Key figures' });
    expect(figure('Views')).toHaveTextContent('800');
    expect(figure('Views')).toHaveTextContent('+220% vs the previous 7 days');
    expect(figure('Interactions')).toHaveTextContent('−20.0%');
    expect(figure('Reach')).toHaveTextContent('No data');
    expect(figure('Reach')).not.toHaveTextContent(/^Reach0/);
    expect(figure('Followers gained')).toHaveTextContent('+50');
    expect(figure('Followers gained')).toHaveTextContent('No comparison with the previous 7 days');
    expect(figure('Engagement rate')).toHaveTextContent('5.00%');
    expect(figure('Engagement rate')).toHaveTextContent(/interactions ÷ views/);
  });

  it('asks for the range of the last 30 days by default', async () => {
    const { server } = await renderAnalytics();
    await screen.findByRole('region', { name: 'Key figures' });
    const request = server.requests.find((r) => r.path.endsWith('/analytics/overview'))!;
    const from = Date.parse(request.query.get('from')!);
    const to = Date.parse(request.query.get('to')!);
    expect((to - from) / 86_400_000).toBe(29);
  });

  it('gives each chart a screen-reader summary and a table of its numbers', async () => {
    await renderAnalytics();
    const chart = await screen.findByRole('region', { name: 'Views and interactions per day' });
    expect(chart).toHaveTextContent(
      '800 views and 40 interactions gained over 3 days; the most views on 3 Mar 2026 (700).',
    );
    const table = within(chart).getByRole('table', { name: 'Views and interactions per day' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[1]).toHaveTextContent('1 Mar 2026——');
    expect(rows[3]).toHaveTextContent('3 Mar 202670030');
    const followers = screen.getByRole('region', { name: 'Followers per account' });
    expect(within(followers).getByRole('table')).toHaveTextContent(
      'Studio IG (Instagram)1,010 on 1 Mar 20261,050 on 7 Mar 2026+50',
    );
  });

  it("maps the best time to post in the user's time zone, with the posts it rests on", async () => {
    const { server } = await renderAnalytics({
      me: createMe({ user: { timezone: 'Asia/Tokyo' } }),
    });
    const map = await screen.findByRole('region', { name: 'Best time to post' });
    const request = server.requests.find((r) => r.path.endsWith('/analytics/best-times'))!;
    expect(request.query.get('timezone')).toBe('Asia/Tokyo');
    expect(request.query.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request.query.has('sort')).toBe(false);
    expect(map).toHaveTextContent(
      /Based on 3 posts published from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}, by the hour they went out in Asia\/Tokyo\./,
    );
    expect(map).toHaveTextContent('Best: Tuesday 08:00–09:00 (7.50% engagement rate, 2 posts).');
    // Only hours with posts are in the table; an hour without posts is blank, not 0.
    const rows = within(within(map).getByRole('table', { name: 'Best time to post' })).getAllByRole(
      'row',
    );
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Tuesday 08:00–09:0027.50%15');
    expect(rows[2]).toHaveTextContent('Friday 14:00–15:001——');
    expect(within(map).getByTitle('Monday 03:00–04:00: no posts').getAttribute('style')).toBeNull();
    expect(
      within(map).getByTitle('Tuesday 08:00–09:00: 7.50%, 2 posts').getAttribute('style'),
    ).toMatch(/background/);

    await userEvent.click(within(map).getByRole('button', { name: 'Interactions per post' }));
    expect(map).toHaveTextContent('Best: Tuesday 08:00–09:00 (15 interactions per post, 2 posts).');
  });

  it('offers the CSV of the range and filters to members who may export', async () => {
    await renderAnalytics({
      path: `/analytics?range=custom&from=2026-03-01&to=2026-03-07&network=${X}`,
    });
    const link = await screen.findByRole('link', { name: 'Export posts CSV' });
    expect(link).toHaveAttribute(
      'href',
      `/api/organizations/${ORG}/analytics/export.csv?from=2026-03-01&to=2026-03-07&timezone=Europe%2FLondon&platformIds=${X}`,
    );
    expect(link).toHaveAttribute('download');
    const accounts = screen.getByRole('link', { name: 'Export accounts CSV' });
    expect(accounts).toHaveAttribute(
      'href',
      `/api/organizations/${ORG}/analytics/accounts.csv?from=2026-03-01&to=2026-03-07&timezone=Europe%2FLondon&platformIds=${X}`,
    );
  });

  it('prints the report with the browser', async () => {
    await renderAnalytics();
    const print = await screen.findByRole('button', { name: 'Print report' });
    const calls: number[] = [];
    const original = window.print;
    window.print = () => calls.push(1);
    try {
      await userEvent.click(print);
    } finally {
      window.print = original;
    }
    expect(calls).toHaveLength(1);
  });

  it('leaves the exports out for a member who may only view analytics', async () => {
    await renderAnalytics({ me: createMe({ permissions: ['analytics:view'] }) });
    await screen.findByRole('region', { name: 'Key figures' });
    expect(screen.queryByRole('link', { name: 'Export posts CSV' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Export accounts CSV' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Print report' })).toBeInTheDocument();
  });

  it('links top posts to their details and sorts them on the server', async () => {
    const { server } = await renderAnalytics();
    const top = await screen.findByRole('region', { name: 'Top posts' });
    expect(within(top).getByRole('link', { name: 'Spring launch' })).toHaveAttribute(
      'href',
      `/content/${POST}`,
    );
    // The post's first picture, decorative next to its link.
    const thumbnail = top.querySelector('img');
    expect(thumbnail).toHaveAttribute('src', 'https://api.example.com/media/a/b.jpg?exp=1&sig=s');
    expect(thumbnail).toHaveAttribute('alt', '');
    await userEvent.click(within(top).getByRole('button', { name: 'Interactions' }));
    await waitFor(() =>
      expect(server.requests.some((r) => r.query.get('sort') === 'interactions')).toBe(true),
    );
  });

  it('links a post published outside Herald to the network, saying so', async () => {
    await renderAnalytics();
    const top = await screen.findByRole('region', { name: 'Top posts' });
    const link = within(top).getByRole('link', {
      name: 'Made in the Instagram app (opens on Instagram)',
    });
    expect(link).toHaveAttribute('href', 'https://www.instagram.com/p/abc123/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(top).getByText('Published outside Herald')).toBeInTheDocument();
    // No details page in Herald for it.
    expect(top.querySelectorAll('a[href^="/content/"]')).toHaveLength(1);
  });

  it('says which accounts are stale and why', async () => {
    await renderAnalytics();
    const notice = await screen.findByRole('region', { name: 'Accounts with outdated metrics' });
    expect(notice).toHaveTextContent('Studio X (X): X refused the read: rate limited.');
  });

  it('tells a new organization to connect an account, then to publish, then when the first reading comes', async () => {
    const empty = (status: AnalyticsOverview['status']) =>
      createOverview({
        status,
        topPosts: [],
        daily: [],
        followers: [],
        networks: [],
        accounts: [],
      });
    const first = await renderAnalytics({
      overview: empty({
        connectedAccounts: 0,
        publishedTargets: 0,
        hasReadings: false,
        firstCollectionAt: null,
      }),
    });
    expect(await screen.findByRole('link', { name: 'Connect an account' })).toHaveAttribute(
      'href',
      '/settings',
    );
    first.unmount();

    const second = await renderAnalytics({
      overview: empty({
        connectedAccounts: 1,
        publishedTargets: 0,
        hasReadings: false,
        firstCollectionAt: null,
      }),
    });
    expect(await screen.findByRole('link', { name: 'Create a post' })).toHaveAttribute(
      'href',
      '/create-post',
    );
    second.unmount();

    const waiting = empty({
      connectedAccounts: 1,
      publishedTargets: 1,
      hasReadings: false,
      firstCollectionAt: '2026-03-02T11:00:00Z',
    });
    const third = await renderAnalytics({ overview: waiting });
    const start = await screen.findByRole('region', { name: 'Getting started with analytics' });
    expect(screen.queryByRole('region', { name: 'Key figures' })).toBeNull();
    expect(start).toHaveTextContent(
      'The first reading is taken 10 minutes after publishing: around 2 Mar 2026, 11:00.',
    );
    // An X account with X metrics off: its posts will not be read until they are turned on.
    await waitFor(() => expect(start).toHaveTextContent(X_OFF_NOTE));
    third.unmount();

    // Times are the viewer's: the same reading is at 20:00 for someone in Tokyo.
    await renderAnalytics({
      overview: waiting,
      integrations: [createIntegration({ platform: { id: 'plt_fb', name: 'Facebook' } })],
      me: createMe({ user: { timezone: 'Asia/Tokyo' } }),
    });
    const noX = await screen.findByRole('region', { name: 'Getting started with analytics' });
    expect(noX).toHaveTextContent(
      'The first reading is taken 10 minutes after publishing: around 2 Mar 2026, 20:00.',
    );
    expect(noX).not.toHaveTextContent('X bills');
  });

  it('refuses a custom range that ends before it starts, without asking the server', async () => {
    const { server } = await renderAnalytics({
      path: '/analytics?range=custom&from=2026-03-07&to=2026-03-01',
    });
    expect(await screen.findByText('The range ends before it starts.')).toBeInTheDocument();
    expect(server.requests.some((r) => r.path.endsWith('/analytics/overview'))).toBe(false);
  });

  it('shows the Analytics link only to members who may view analytics', async () => {
    mockServer({ me: createMe({ permissions: ['post:create'] }) });
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Acme Studio Dashboard', level: 1 });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Analytics' })).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Posts' })).toBeInTheDocument();
  });

  it('lets a manager turn X metrics on with a budget, showing its cost', async () => {
    const { server, user } = await renderAnalytics();
    const card = await screen.findByRole('region', { name: 'X metrics' });
    expect(card).toHaveTextContent('X charges $0.005 for every post read');
    await user.click(within(card).getByRole('switch', { name: 'Read X metrics' }));
    const budget = within(card).getByLabelText('Monthly budget (reads)');
    await user.clear(budget);
    await user.type(budget, '200');
    expect(card).toHaveTextContent('At most $1.00 a month.');
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({
        xEnabled: true,
        xMonthlyReadBudget: 200,
      }),
    );
  });

  it('shows X metrics read-only to a member who cannot manage the organization', async () => {
    await renderAnalytics({ me: createMe({ permissions: ['analytics:view'] }) });
    const card = await screen.findByRole('region', { name: 'X metrics' });
    expect(card).toHaveTextContent('Off. Someone who manages the organization can turn it on.');
    expect(within(card).queryByRole('switch')).toBeNull();
  });

  it('leaves X metrics out for an organization without an X account', async () => {
    const { server, queryClient } = await renderAnalytics({ integrations: [] });
    await screen.findByRole('region', { name: 'Key figures' });
    // Both answers are in before looking: the card is absent by choice, not by waiting.
    await waitFor(() =>
      expect(
        queryClient.getQueryState(['analytics', ORG, 'settings'])?.status === 'success' &&
          queryClient.getQueryState(['integrations', ORG])?.status === 'success',
      ).toBe(true),
    );
    expect(server.requests.some((r) => r.path.endsWith('/analytics/settings'))).toBe(true);
    expect(screen.queryByRole('region', { name: 'X metrics' })).toBeNull();
  });

  describe('Refresh metrics', () => {
    // Far ahead, so the cooldown cannot end while a test runs: 11:15 UTC, 20:15 in Tokyo.
    const LATER = '2099-03-02T11:15:00.000Z';
    const refreshed = {
      targets: 4,
      collected: 2,
      queued: 1,
      accounts: 2,
      refreshedAt: '2099-03-02T11:00:00.000Z',
      nextAllowedAt: LATER,
    };
    const tokyo = () => createMe({ user: { timezone: 'Asia/Tokyo' } });
    const refreshButton = () => screen.findByRole('button', { name: 'Refresh metrics' });

    it('reads the networks, reloads the screen, confirms, then waits out the cooldown in the viewer’s time', async () => {
      let current: AnalyticsSettings = settings;
      const answer = deferred();
      const { server, user } = await renderAnalytics({
        me: tokyo(),
        analyticsSettings: () => ok(current),
        refresh: async () => {
          await answer.promise;
          current = { ...settings, refreshedAt: refreshed.refreshedAt, nextRefreshAt: LATER };
          return ok(refreshed);
        },
      });
      await screen.findByRole('region', { name: 'Key figures' });
      const button = await refreshButton();
      expect(button).toBeEnabled();
      expect(button).toHaveAccessibleDescription('Reads the networks now, once every 15 minutes.');
      const overviews = server.count(`GET /organizations/${ORG}/analytics/overview`);

      await user.click(button);
      // While the networks are read: one click is enough.
      const busy = await screen.findByRole('button', { name: 'Refreshing…' });
      expect(busy).toBeDisabled();
      answer.resolve();

      expect(
        await screen.findByText(
          'Metrics refreshed: 2 post readings taken, 1 queued until the network allows, 1 not read.',
        ),
      ).toBeInTheDocument();
      expect(server.count(`POST /organizations/${ORG}/analytics/refresh`)).toBe(1);
      // The figures are asked for again.
      await waitFor(() =>
        expect(server.count(`GET /organizations/${ORG}/analytics/overview`)).toBeGreaterThan(
          overviews,
        ),
      );
      const cooling = await refreshButton();
      expect(cooling).toBeDisabled();
      expect(cooling).toHaveAccessibleDescription('You can refresh again at 20:15');
    });

    it('is disabled on arrival during the cooldown, saying when in the viewer’s zone', async () => {
      await renderAnalytics({
        analyticsSettings: {
          ...settings,
          refreshedAt: '2099-03-02T11:00:00Z',
          nextRefreshAt: LATER,
        },
      });
      const button = await refreshButton();
      await waitFor(() => expect(button).toBeDisabled());
      // Europe/London in March is UTC.
      expect(button).toHaveAccessibleDescription('You can refresh again at 11:15');
      expect(screen.getByText('You can refresh again at 11:15')).toBeInTheDocument();
    });

    it('comes back by itself when the cooldown is over', async () => {
      const soon = new Date(Date.now() + 800).toISOString();
      await renderAnalytics({
        analyticsSettings: {
          ...settings,
          refreshedAt: new Date().toISOString(),
          nextRefreshAt: soon,
        },
      });
      const button = await refreshButton();
      await waitFor(() => expect(button).toBeDisabled());
      await waitFor(() => expect(button).toBeEnabled(), { timeout: 3000 });
      expect(button).toHaveAccessibleDescription('Reads the networks now, once every 15 minutes.');
    });

    it('says when it may be used again after a refusal for coming too soon', async () => {
      const { user } = await renderAnalytics({
        me: tokyo(),
        refresh: {
          status: 429,
          body: {
            status: 'error',
            code: 'RATE_LIMITED',
            message:
              'Metrics were last refreshed at 11:00 UTC, and can be refreshed once every 15 minutes. You can refresh again at 11:15 UTC (in 14 minutes).',
            details: { nextAllowedAt: LATER, retryAfterSeconds: 840 },
          },
        },
      });
      const button = await refreshButton();
      await waitFor(() => expect(button).toBeEnabled());
      await user.click(button);
      expect(await screen.findByText('You can refresh again at 20:15.')).toBeInTheDocument();
      await waitFor(() => expect(button).toBeDisabled());
      expect(button).toHaveAccessibleDescription('You can refresh again at 20:15');
    });

    it('shows the server’s sentence when a refresh fails otherwise, and stays usable', async () => {
      const { user } = await renderAnalytics({
        refresh: fail(503, 'UNAVAILABLE', 'The service is temporarily unavailable.'),
      });
      const button = await refreshButton();
      await user.click(button);
      expect(
        await screen.findByText('The service is temporarily unavailable.'),
      ).toBeInTheDocument();
      await waitFor(() => expect(button).toBeEnabled());
    });

    it('is not offered to members who cannot manage the organization', async () => {
      await renderAnalytics({
        me: createMe({ permissions: ['analytics:view', 'analytics:export'] }),
      });
      await screen.findByRole('region', { name: 'Key figures' });
      expect(screen.getByRole('link', { name: 'Export posts CSV' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Refresh metrics' })).toBeNull();
    });
  });
});
