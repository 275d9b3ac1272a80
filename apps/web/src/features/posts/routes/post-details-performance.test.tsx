import type { Post, PostMetrics } from '@herald/contract';
import { PERMISSION_NAMES } from '@herald/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { NO_READING_YET } from '../components/details/performance-card';
import { createPlatformPost, createPost } from '../testing/post-fixtures';
import { connectedTo, postPath, renderDetails } from '../testing/render-details';

const IG_TARGET = '11111111-1111-4111-8111-111111111111';
const X_TARGET = '22222222-2222-4222-8222-222222222222';
const IG_PLATFORM = '33333333-3333-4333-8333-333333333333';
const X_PLATFORM = '44444444-4444-4444-8444-444444444444';

const none = {
  views: null,
  reach: null,
  likes: null,
  comments: null,
  shares: null,
  saves: null,
  clicks: null,
  interactions: null,
  engagementRate: null,
};

function published(): Post {
  return createPost({
    status: 'published',
    platformPosts: [createPlatformPost({ status: 'PUBLISHED', externalId: '7351' })],
  });
}

const answer = (metrics: PostMetrics) => ok(metrics);

const METRICS: PostMetrics = {
  engagementFormula:
    'Engagement rate = interactions ÷ views, or ÷ reach where a network gives no views.',
  targets: [
    {
      targetId: IG_TARGET,
      integrationId: null,
      platformId: IG_PLATFORM,
      platform: 'Instagram',
      accountName: 'Studio IG',
      publishedAt: '2026-03-02T10:00:00Z',
      takenAt: '2026-03-03T10:00:00Z',
      latest: {
        ...none,
        views: 1234,
        reach: 800,
        likes: 25,
        interactions: 30,
        engagementRate: 0.0243,
      },
      series: [
        { takenAt: '2026-03-02T11:00:00Z', views: 100, interactions: 10 },
        { takenAt: '2026-03-03T10:00:00Z', views: 1234, interactions: 30 },
      ],
    },
    {
      targetId: X_TARGET,
      integrationId: null,
      platformId: X_PLATFORM,
      platform: 'X',
      accountName: 'Studio X',
      publishedAt: '2026-03-02T10:00:00Z',
      takenAt: null,
      latest: none,
      series: [],
    },
  ],
};

const metricsPath = (post: Post) => `GET ${postPath(post)}/metrics`;

describe('/content/{postId} Performance card', () => {
  it('shows each network with its figures, a curve and the curve in words', async () => {
    const post = published();
    await renderDetails(post, { routes: { [metricsPath(post)]: answer(METRICS) } });
    const card = await screen.findByRole('region', { name: 'Performance' });
    const ig = (await within(card).findByRole('heading', { name: 'Studio IG' })).closest('li')!;
    const figure = (label: string) =>
      within(ig).getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(figure('Views')).toHaveTextContent('1,234');
    expect(figure('Likes')).toHaveTextContent('25');
    expect(figure('Engagement')).toHaveTextContent('2.43%');
    // Saves are not given: a dash, never 0.
    expect(figure('Saves')).toHaveTextContent('—');
    expect(figure('Saves')).toHaveTextContent('Not given by Instagram');
    expect(within(ig).getByTestId('sparkline')).toHaveAttribute('aria-hidden', 'true');
    expect(within(ig).getByText(/Views over 2 readings: from 100 to 1,234/)).toBeInTheDocument();
    const table = within(ig).getByRole('table', { name: 'Readings of Studio IG on Instagram' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);

    const x = within(card).getByRole('heading', { name: 'Studio X' }).closest('li')!;
    expect(within(x).getByText(NO_READING_YET)).toBeInTheDocument();
    expect(within(x).queryByTestId('sparkline')).toBeNull();
  });

  it('offers a retry when the figures fail to load', async () => {
    const post = published();
    let calls = 0;
    await renderDetails(post, {
      routes: {
        [metricsPath(post)]: () => {
          calls += 1;
          return calls === 1 ? fail(500, 'INTERNAL', 'Boom') : answer(METRICS);
        },
      },
    });
    const card = await screen.findByRole('region', { name: 'Performance' });
    await userEvent.click(await within(card).findByRole('button', { name: 'Try again' }));
    expect(await within(card).findByRole('heading', { name: 'Studio IG' })).toBeInTheDocument();
  });

  it('is not shown without analytics:view', async () => {
    const post = published();
    const me = createMe({ permissions: PERMISSION_NAMES.filter((p) => p !== 'analytics:view') });
    await renderDetails(post, { me, routes: { [metricsPath(post)]: answer(METRICS) } });
    await screen.findByRole('region', { name: 'Details' });
    expect(screen.queryByRole('region', { name: 'Performance' })).toBeNull();
  });

  it('is not shown before the post went out anywhere', async () => {
    const post = createPost({ platformPosts: [createPlatformPost({ status: 'QUEUED' })] });
    await renderDetails(post, {
      integrations: connectedTo('X'),
      routes: { [metricsPath(post)]: answer(METRICS) },
    });
    await screen.findByRole('region', { name: 'Details' });
    expect(screen.queryByRole('region', { name: 'Performance' })).toBeNull();
  });
});
