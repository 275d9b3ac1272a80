import { screen } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { ok } from '@/testing/fake-server';
import { createIntegration } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';
import { postsListHandler } from '../testing/post-fixtures';

const local = (text: string) => dayjs(text).toISOString();

const accounts = [
  createIntegration({ id: 'int_ada', metadata: { name: 'Ada Posts' } }),
  createIntegration({
    id: 'int_cafe',
    platform: { id: 'plt_facebook', name: 'Facebook' },
    metadata: { name: 'Harbor Cafe', username: null },
  }),
];

async function renderWith(path: string) {
  const server = mockServer({
    me: createMe(),
    routes: {
      'GET /organizations/org_1/posts': postsListHandler(() => []),
      'GET /organizations/org_1/integrations': ok({ platforms: accounts }),
      'GET /organizations/org_1/queue/slots': ok({
        slots: [
          { at: local('2030-03-05T09:00'), integrationIds: ['int_ada', 'int_cafe'] },
          { at: local('2030-03-05T15:00'), integrationIds: ['int_cafe'] },
        ],
      }),
      'GET /organizations/org_1/evergreen-collections/projection': ok({
        fills: [
          {
            at: local('2030-03-05T09:00'),
            collectionId: 'col_1',
            collectionName: 'Best of',
            integrationIds: ['int_ada'],
            postId: 'post_1',
            label: 'Our guide to spring',
          },
        ],
      }),
    },
  });
  renderApp(path);
  await screen.findByRole('heading', { name: 'Calendar', level: 1 });
  return server;
}

describe('/calendar evergreen projection', () => {
  it('marks the slot a collection will fill, apart from the accounts still open at that time', async () => {
    const server = await renderWith('/calendar?date=2030-03-05');

    const marker = await screen.findByTitle(/^Evergreen: Best of will post/);
    expect(marker).toHaveAttribute('data-evergreen', 'true');
    expect(marker).toHaveAttribute(
      'title',
      'Evergreen: Best of will post “Our guide to spring” at 9:00 AM for Ada Posts (X)',
    );
    expect(marker).toHaveTextContent(
      '9:00 AM Evergreen: Best of will post “Our guide to spring” for Ada Posts (X)',
    );
    // The café's queue is still open at 9:00: its own plain marker stays.
    const open = screen.getAllByText(/Empty queue slot at/).map((s) => s.parentElement!);
    expect(open.map((s) => s.getAttribute('title'))).toEqual([
      'Open queue slot at 9:00 AM for Harbor Cafe (Facebook)',
      'Open queue slot at 3:00 PM for Harbor Cafe (Facebook)',
    ]);
    const asked = server.requests.find((r) => r.path.endsWith('/evergreen-collections/projection'));
    expect(asked?.query.get('from')).toBe(local('2030-03-03T00:00'));
  });

  it('counts a day’s evergreen fills in the month', async () => {
    await renderWith('/calendar?view=month&date=2030-03-05');

    const line = await screen.findByText('Evergreen: Best of', { selector: 'p' });
    expect(line).toHaveAttribute('title', '9:00 AM Evergreen: Best of');
    expect(
      await screen.findByText(/^2 open queue slots · Harbor Cafe \(Facebook\)/),
    ).toBeInTheDocument();
  });
});
