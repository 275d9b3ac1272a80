import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, fail, type Handler } from '@/testing/fake-server';
import { notificationRoutes } from '@/testing/notification-fixtures';
import {
  detailPane,
  item,
  listPane,
  payment,
  published,
  renderNotifications,
} from './notifications-page.fixtures';

describe('/notifications details and failures', () => {
  it("shows 'Post Details Unavailable' with a link to the post", async () => {
    const { user } = await renderNotifications();
    await screen.findByText('3 notifications available');

    await user.click(within(item(published.message)).getByRole('button', { name: /Post/ }));

    const detail = detailPane();
    expect(within(detail).getByText('Post Details Unavailable')).toBeInTheDocument();
    expect(within(detail).getByRole('link', { name: 'Open the post' })).toHaveAttribute(
      'href',
      '/content/post_7',
    );
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
