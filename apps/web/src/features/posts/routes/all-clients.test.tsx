import type { MeData } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { createMe } from '@/testing/factories';
import { ok } from '@/testing/fake-server';
import { createConversation } from '@/testing/inbox-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';
import { createPost } from '../testing/post-fixtures';

const bakery = { id: '5b0c6a8e-8d1f-4f5e-9a51-1c1e2f3a4b01', name: 'Harbour Bakery' };
const books = { id: '5b0c6a8e-8d1f-4f5e-9a51-1c1e2f3a4b02', name: 'Tidewater Books' };
const me = createMe({
  organizationId: bakery.id,
  organizationName: bakery.name,
  user: { timezone: 'Europe/Paris' },
});

/** /auth/me follows the switch, as the real server does. */
function server(routes: Record<string, unknown>) {
  let session: MeData = me;
  return mockServer({
    routes: {
      'GET /auth/me': () => ok(session),
      'POST /member/current-organization': (request: { body: unknown }) => {
        const { organizationId } = request.body as { organizationId: string };
        session = createMe({ organizationId, organizationName: books.name });
        return ok({ organizationId });
      },
      ...routes,
    },
  });
}

describe('/all-clients', () => {
  it("shows the week's posts of every organization by day in the person's zone, each marked, and opens one in its organization", async () => {
    const bread = createPost({
      id: 'post_bread',
      organizationId: bakery.id,
      content: 'Fresh sourdough at seven',
      status: 'scheduled',
      // 22:30 UTC on Monday is 23:30 on Monday in Paris.
      scheduledAt: '2026-03-09T22:30:00.000Z',
    });
    const poems = createPost({
      id: 'post_poems',
      organizationId: books.id,
      content: 'New poetry shelf',
      status: 'pending_approval',
      scheduledAt: '2026-03-10T08:00:00.000Z',
    });
    const api = server({
      'GET /me/all-clients/calendar': ok({
        clients: [bakery, books],
        posts: [bread, poems],
        truncated: [],
      }),
    });
    const { user, router } = renderApp('/all-clients?date=2026-03-10');

    expect(await screen.findByRole('heading', { name: 'Mar 8 – 14, 2026' })).toBeInTheDocument();
    expect(screen.getByText('Times in Europe/Paris')).toBeInTheDocument();
    const asked = api.requests.find((r) => r.path === '/me/all-clients/calendar');
    // Sunday 00:00 in Paris to the next Sunday 00:00.
    expect(Object.fromEntries(asked!.query)).toEqual({
      from: '2026-03-07T23:00:00.000Z',
      to: '2026-03-14T23:00:00.000Z',
    });
    const monday = screen.getByRole('region', { name: 'Monday, March 9' });
    expect(within(monday).getByText('11:30 PM')).toBeInTheDocument();
    expect(within(monday).getByText('Harbour Bakery')).toBeInTheDocument();
    const tuesday = screen.getByRole('region', { name: 'Tuesday, March 10' });
    expect(within(tuesday).getByText('Tidewater Books')).toBeInTheDocument();
    expect(within(tuesday).getByText('9:00 AM')).toBeInTheDocument();

    await user.click(
      within(tuesday).getByRole('button', { name: /Tidewater Books: New poetry shelf/ }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/content/post_poems'));
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({
      organizationId: books.id,
    });
    expect(window.localStorage.getItem(storageKeys.currentOrgId)).toBe(books.id);
  });

  it('lists what waits for approval per organization, and the open conversations, newest first', async () => {
    const pending = createPost({
      id: 'post_pending',
      organizationId: bakery.id,
      content: 'Croissant recipe',
      status: 'pending_approval',
      scheduledAt: '2026-03-10T08:00:00.000Z',
    });
    server({
      'GET /me/all-clients/approvals': ok({
        clients: [{ ...bakery, waiting: 1 }],
        posts: [pending],
      }),
      'GET /me/all-clients/inbox': ok({
        clients: [bakery, books],
        conversations: [
          {
            organizationId: books.id,
            conversation: createConversation({ id: 'c_books', title: 'Reader Rita', unread: true }),
          },
          {
            organizationId: bakery.id,
            conversation: createConversation({ id: 'c_bread', title: 'Rye Fan', unread: false }),
          },
        ],
      }),
    });
    const { user, router } = renderApp('/all-clients?view=approvals');

    expect(await screen.findByText('The approval queues of Harbour Bakery.')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Waiting per organization' })).toHaveTextContent(
      'Harbour Bakery: 1 waiting',
    );
    // The bakery is current: opening goes straight to its approvals, no switch.
    await user.click(
      screen.getByRole('button', { name: /Review in Harbour Bakery: Croissant recipe/ }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/approvals'));

    await router.navigate('/all-clients?view=inbox');
    const rows = await screen.findAllByRole('button', { name: /Reader Rita|Rye Fan/ });
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual([
      'Tidewater Books: Reader Rita, unread',
      'Harbour Bakery: Rye Fan',
    ]);
    await user.click(rows[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/inbox'));
    expect(router.state.location.search).toBe('?c=c_books');
  });

  it('says so when none of the organizations opens a view', async () => {
    server({ 'GET /me/all-clients/approvals': ok({ clients: [], posts: [] }) });
    renderApp('/all-clients?view=approvals');
    expect(
      await screen.findByText('None of your organizations lets you see the approval queues.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Nothing is waiting for your approval.')).toBeInTheDocument();
  });
});
