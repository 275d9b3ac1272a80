import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, fail, ok, type Handler } from '@/testing/fake-server';
import { notificationRoutes } from '@/testing/notification-fixtures';
import {
  detailPane,
  item,
  listPane,
  payment,
  published,
  renderNotifications,
} from './notifications-page.fixtures';

/** The post the published notification is about, as `GET /organizations/org_1/posts/post_7` answers. */
const linkedPost = {
  id: 'post_7',
  organizationId: 'org_1',
  title: 'Winter latte launch',
  status: 'published',
  content: 'Our winter latte is here.',
  platforms: [{ id: 'plt_x', name: 'X' }],
  platformPosts: [],
  media: [],
  scheduledAt: null,
  publishedAt: '2026-03-02T09:00:00.000Z',
  createdAt: '2026-03-02T08:00:00.000Z',
  updatedAt: '2026-03-02T09:00:00.000Z',
  creator: { id: 'usr_ada', displayName: 'Ada Lovelace' },
};

describe('/notifications details and failures', () => {
  it('links a publishing notification to its post, with no warning box', async () => {
    const { user, server } = await renderNotifications({
      routes: { 'GET /organizations/org_1/posts/post_7': ok({ post: linkedPost }) },
    });
    await screen.findByText('3 notifications available');

    await user.click(within(item(published.message)).getByRole('button', { name: /Post/ }));

    const detail = detailPane();
    expect(within(detail).getByText(published.message)).toBeInTheDocument();
    expect(within(detail).getByRole('link', { name: 'View post' })).toHaveAttribute(
      'href',
      '/content/post_7',
    );
    await waitFor(() => expect(server.count('GET /organizations/org_1/posts/post_7')).toBe(1));
    expect(within(detail).queryByText('Post Details Unavailable')).toBeNull();
  });

  it('shows only the message for a notification without a post', async () => {
    const { user, server } = await renderNotifications();
    await screen.findByText('3 notifications available');

    await user.click(within(item(payment.message)).getByRole('button', { name: /Payment/ }));

    const detail = detailPane();
    expect(within(detail).getByText(payment.message)).toBeInTheDocument();
    expect(within(detail).queryByText('Post Details Unavailable')).toBeNull();
    expect(within(detail).queryByRole('link', { name: 'View post' })).toBeNull();
    expect(server.requests.some((r) => r.path.includes('/posts/'))).toBe(false);
  });

  it("says 'Post Details Unavailable' calmly when the post has been deleted", async () => {
    const { user } = await renderNotifications({
      routes: {
        'GET /organizations/org_1/posts/post_7': fail(
          404,
          'NOT_FOUND',
          'This post does not exist.',
        ),
      },
    });
    await screen.findByText('3 notifications available');
    await user.click(within(item(published.message)).getByRole('button', { name: /Post/ }));

    const detail = detailPane();
    expect(await within(detail).findByText('Post Details Unavailable')).toBeInTheDocument();
    expect(within(detail).getByText('This post has been deleted since.')).toBeInTheDocument();
    expect(within(detail).queryByRole('alert')).toBeNull();
    expect(within(detail).queryByRole('link', { name: 'View post' })).toBeNull();
  });

  it('shows loading details while the list of a linked notification loads', async () => {
    const gate = deferred();
    const fixture = notificationRoutes([payment]);
    const list = fixture['GET /notifications'] as Handler;
    await renderNotifications({
      path: '/notifications?id=ntf_pay',
      routes: {
        'GET /notifications': async (request) => {
          if (!request.query.has('limit')) await gate.promise;
          return list(request);
        },
      },
    });

    expect(within(detailPane()).getByRole('status')).toHaveTextContent('Loading details');
    gate.resolve();
    expect(
      await within(detailPane()).findByRole('heading', { name: 'Payment Issue' }),
    ).toBeInTheDocument();
  });

  it("says 'Failed to fetch notifications' and 'Error loading details', and recovers", async () => {
    let broken = true;
    const fixture = notificationRoutes([payment]);
    const list = fixture['GET /notifications'] as Handler;
    const { user } = await renderNotifications({
      path: '/notifications?id=ntf_pay',
      routes: {
        'GET /notifications': (request) =>
          broken && !request.query.has('limit')
            ? fail(500, 'INTERNAL', 'The database is down.')
            : list(request),
      },
    });

    const alert = await within(listPane()).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch notifications');
    expect(alert).toHaveTextContent('The database is down.');
    expect(within(detailPane()).getByText('Error loading details')).toBeInTheDocument();

    broken = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(listPane()).findByRole('listitem', { name: payment.message }));
    expect(
      within(detailPane()).getByRole('heading', { name: 'Payment Issue' }),
    ).toBeInTheDocument();
  });

  it('says when a linked notification no longer exists', async () => {
    await renderNotifications({ path: '/notifications?id=ntf_gone' });
    expect(await within(detailPane()).findByText('Error loading details')).toBeInTheDocument();
    expect(
      within(detailPane()).getByText('This notification is no longer available.'),
    ).toBeInTheDocument();
  });

  it('Refresh fetches the list again', async () => {
    const { user, server } = await renderNotifications();
    await screen.findByText('3 notifications available');
    const before = server.requests.filter((r) => r.path === '/notifications').length;

    await user.click(screen.getByRole('button', { name: 'Refresh' }));

    await waitFor(() =>
      expect(server.requests.filter((r) => r.path === '/notifications').length).toBe(before + 2),
    );
  });
});
