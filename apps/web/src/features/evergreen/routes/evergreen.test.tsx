import type { EvergreenCollection } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { ok, type FakeRequest } from '@/testing/fake-server';
import { createIntegration } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const collection = (over: Partial<EvergreenCollection> = {}): EvergreenCollection => ({
  id: 'col_1',
  name: 'Best of',
  integrationIds: ['int_ada'],
  minDaysBetween: 30,
  endAfterCycles: 3,
  endAt: null,
  paused: false,
  ended: false,
  postCount: 1,
  fillCount: 2,
  lastFillAt: null,
  lastError: null,
  createdAt: '2030-03-01T00:00:00Z',
  ...over,
});

function renderPage(collections: EvergreenCollection[]) {
  const server = mockServer({
    me: createMe(),
    routes: {
      'GET /organizations/org_1/integrations': ok({
        platforms: [createIntegration({ id: 'int_ada', metadata: { name: 'Ada Posts' } })],
      }),
      'GET /organizations/org_1/evergreen-collections': () => ok({ collections }),
      'GET /organizations/org_1/evergreen-collections/col_1': () =>
        ok({
          collection: collections[0],
          posts: [
            {
              postId: 'post_1',
              label: 'Our guide to spring',
              position: 0,
              useCount: 2,
              lastUsedAt: '2030-03-02T09:00:00Z',
              addedAt: '2030-03-01T00:00:00Z',
            },
          ],
        }),
      'POST /organizations/org_1/evergreen-collections': ({ body }: FakeRequest) => {
        const created = collection({ id: 'col_2', ...(body as object), postCount: 0 });
        collections.push(created);
        return {
          status: 201,
          body: { status: 'success', data: { collection: created, posts: [] } },
        };
      },
      'PATCH /organizations/org_1/evergreen-collections/col_1': ({ body }: FakeRequest) => {
        Object.assign(collections[0]!, body);
        return ok({ collection: collections[0], posts: [] });
      },
    },
  });
  return { server, ...renderApp('/evergreen') };
}

describe('/evergreen', () => {
  it('lists collections with their rule, status and posts, and pauses one', async () => {
    const { server, user } = renderPage([collection()]);

    const card = await screen.findByRole('listitem', { name: 'Best of' });
    // The accounts are named once they have loaded.
    expect(
      await within(card).findByText(
        'Each post at most once every 30 days, 3 times in all. To Ada Posts (X).',
      ),
    ).toBeInTheDocument();
    expect(within(card).getByText('Active')).toBeInTheDocument();
    expect(await within(card).findByRole('link', { name: 'Our guide to spring' })).toHaveAttribute(
      'href',
      '/content/post_1',
    );
    await user.click(within(card).getByRole('button', { name: 'Pause' }));
    await waitFor(() =>
      expect(server.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([
        { paused: true },
      ]),
    );
    expect(await within(card).findByText('Paused')).toBeInTheDocument();
  });

  it('creates a collection with its accounts, interval and end', async () => {
    const { server, user } = renderPage([]);

    await user.click(await screen.findByRole('button', { name: 'New Collection' }));
    const form = screen.getByRole('form', { name: 'Create Collection' });
    await user.click(within(form).getByRole('button', { name: 'Create Collection' }));
    expect(await within(form).findByText('Give the collection a name.')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Name'), 'Tips');
    await user.click(await within(form).findByRole('checkbox', { name: /Ada Posts/ }));
    const days = within(form).getByLabelText('Days between repeats of a post');
    await user.clear(days);
    await user.type(days, '14');
    await user.selectOptions(within(form).getByLabelText('Ends'), 'cycles');
    const times = within(form).getByLabelText('Times per post');
    await user.clear(times);
    await user.type(times, '2');
    await user.click(within(form).getByRole('button', { name: 'Create Collection' }));

    await waitFor(() =>
      expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
        {
          name: 'Tips',
          integrationIds: ['int_ada'],
          minDaysBetween: 14,
          endAfterCycles: 2,
          endAt: null,
        },
      ]),
    );
    expect(await screen.findByRole('listitem', { name: 'Tips' })).toBeInTheDocument();
  });
});
