import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail } from '@/testing/fake-server';
import { createNotification } from '@/testing/notification-fixtures';
import {
  detailPane,
  item,
  listPane,
  payment,
  published,
  renderNotifications,
  shownMessages,
  tab,
  trial,
} from './notifications-page.fixtures';

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('/notifications list', () => {
  it('counts them and lists type, priority and relative time, newest first', async () => {
    await renderNotifications();

    expect(await screen.findByText('3 notifications available')).toBeInTheDocument();
    expect(shownMessages()).toEqual([payment.message, trial.message, published.message]);
    const first = item(payment.message);
    expect(within(first).getByText('Payment Issue')).toBeInTheDocument();
    expect(within(first).getByText('High')).toHaveTextContent('High priority');
    expect(within(first).getByText('2m ago')).toBeInTheDocument();
    expect(within(first).getByText(/Unread/)).toBeInTheDocument();
    expect(within(item(trial.message)).getByText('3h ago')).toBeInTheDocument();
    expect(within(item(published.message)).getByText('2d ago')).toBeInTheDocument();
    expect(within(item(published.message)).getByText('Post Published')).toBeInTheDocument();
    expect(
      within(detailPane()).getByRole('heading', { name: 'No Notification Selected' }),
    ).toBeInTheDocument();
  });

  it("says 'Just now' for one that has just arrived, and a singular count", async () => {
    await renderNotifications({ notifications: [createNotification({ createdAt: ago(2000) })] });
    expect(await screen.findByText('1 notification available')).toBeInTheDocument();
    expect(within(listPane()).getByText('Just now')).toBeInTheDocument();
  });

  it('switches between All, Unread and Read, also with the arrow keys', async () => {
    const { user } = await renderNotifications();
    await screen.findByText('3 notifications available');

    expect(tab(/^All/)).toHaveAttribute('aria-selected', 'true');
    expect(tab(/^Unread/)).toHaveTextContent('Unread2');
    await user.click(tab(/^Unread/));
    expect(shownMessages()).toEqual([payment.message, published.message]);

    await user.keyboard('{ArrowRight}');
    expect(tab(/^Read/)).toHaveAttribute('aria-selected', 'true');
    expect(tab(/^Read/)).toHaveFocus();
    expect(shownMessages()).toEqual([trial.message]);

    await user.keyboard('{Home}');
    expect(shownMessages()).toHaveLength(3);
  });

  it('filters by any combination of priorities, and Clear all shows every one again', async () => {
    const { user } = await renderNotifications();
    await screen.findByText('3 notifications available');
    const filter = within(listPane()).getByRole('group', { name: 'Priority' });

    await user.click(within(filter).getByRole('button', { name: 'High' }));
    expect(within(filter).getByRole('button', { name: 'High' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(shownMessages()).toEqual([payment.message]);
    await user.click(within(filter).getByRole('button', { name: 'Low' }));
    expect(shownMessages()).toEqual([payment.message, published.message]);

    await user.click(tab(/^Read/));
    expect(within(listPane()).getByText('No notifications match the selected priorities.'));

    await user.click(within(filter).getByRole('button', { name: 'Clear all' }));
    expect(shownMessages()).toEqual([trial.message]);
    expect(within(filter).queryByRole('button', { name: 'Clear all' })).toBeNull();
  });

  it('says when there are none at all', async () => {
    await renderNotifications({ notifications: [] });
    expect(await screen.findByText('0 notifications available')).toBeInTheDocument();
    expect(within(listPane()).getByText('You have no notifications yet.')).toBeInTheDocument();
    expect(within(listPane()).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });
});

describe('/notifications read state', () => {
  it('opens the chosen one in the detail pane and marks it read', async () => {
    const { user, server, router } = await renderNotifications();
    await screen.findByText('3 notifications available');

    await user.click(within(item(payment.message)).getByRole('button', { name: /Payment Issue/ }));

    const detail = detailPane();
    expect(within(detail).getByRole('heading', { name: 'Payment Issue' })).toBeInTheDocument();
    expect(within(detail).getByText(payment.message)).toBeInTheDocument();
    expect(within(detail).getByRole('link', { name: 'View plans' })).toHaveAttribute(
      'href',
      '/pricing',
    );
    await waitFor(() => expect(server.count('PATCH /notifications/ntf_pay/read')).toBe(1));
    expect(item(payment.message)).toHaveAttribute('data-read', 'true');
    expect(within(detail).getByText('Read')).toBeInTheDocument();
    expect(tab(/^Unread/)).toHaveTextContent('Unread1');
    expect(router.state.location.search).toBe('?id=ntf_pay');
  });

  it('does not call the server when the chosen one is already read', async () => {
    const { user, server } = await renderNotifications();
    await screen.findByText('3 notifications available');

    await user.click(within(item(trial.message)).getByRole('button', { name: /Subscription/ }));
    expect(
      within(detailPane()).getByRole('heading', { name: 'Subscription Update' }),
    ).toBeInTheDocument();
    expect(server.count('PATCH /notifications/ntf_trial/read')).toBe(0);
  });

  it('toggles read and unread one at a time, from the list and from the details', async () => {
    const { user, server } = await renderNotifications({ path: '/notifications?id=ntf_trial' });
    await screen.findByText('3 notifications available');

    await user.click(within(item(trial.message)).getByRole('button', { name: 'Mark as unread' }));
    await waitFor(() => expect(server.count('PATCH /notifications/ntf_trial/unread')).toBe(1));
    expect(item(trial.message)).toHaveAttribute('data-read', 'false');
    expect(tab(/^Unread/)).toHaveTextContent('Unread3');

    await user.click(within(detailPane()).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(server.count('PATCH /notifications/ntf_trial/read')).toBe(1));
    expect(item(trial.message)).toHaveAttribute('data-read', 'true');
  });

  it('marks all of them read at once', async () => {
    const { user, server } = await renderNotifications();
    await screen.findByText('3 notifications available');

    await user.click(within(listPane()).getByRole('button', { name: 'Mark all as read' }));

    await waitFor(() => expect(server.count('PATCH /notifications/read-all')).toBe(1));
    const call = server.requests.find((r) => r.path === '/notifications/read-all');
    expect(call?.body).toEqual({ organizationId: 'org_1' });
    expect(tab(/^Unread/)).toHaveTextContent('Unread0');
    expect(within(listPane()).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('puts the state back and says so when marking all fails', async () => {
    const { user } = await renderNotifications({
      routes: { 'PATCH /notifications/read-all': { status: 200, body: { unexpected: true } } },
    });
    await screen.findByText('3 notifications available');

    await user.click(within(listPane()).getByRole('button', { name: 'Mark all as read' }));

    expect(await screen.findByText('Failed to mark all as read')).toBeInTheDocument();
    await waitFor(() => expect(tab(/^Unread/)).toHaveTextContent('Unread2'));
  });

  it('puts one back and says so when the server refuses to change it', async () => {
    const { user } = await renderNotifications({
      routes: { 'PATCH /notifications/ntf_pay/read': { status: 200, body: {} } },
    });
    await screen.findByText('3 notifications available');

    await user.click(within(item(payment.message)).getByRole('button', { name: 'Mark as read' }));

    expect(
      await screen.findByText('Failed to mark notification as read/unread'),
    ).toBeInTheDocument();
    await waitFor(() => expect(item(payment.message)).toHaveAttribute('data-read', 'false'));
  });

  it('prefers the server sentence when it gives one', async () => {
    const { user } = await renderNotifications({
      routes: {
        'PATCH /notifications/ntf_pay/read': fail(
          404,
          'NOT_FOUND',
          'This notification does not exist.',
        ),
      },
    });
    await screen.findByText('3 notifications available');
    await user.click(within(item(payment.message)).getByRole('button', { name: 'Mark as read' }));
    expect(await screen.findByText('This notification does not exist.')).toBeInTheDocument();
  });
});

describe('/notifications resolved failures', () => {
  it('tags a failure whose post was fixed as Resolved, without the unread mark, and lists it under Read', async () => {
    const resolved = createNotification({
      type: 'POST_FAILED',
      priority: 'HIGH',
      message: "'Spring menu' was published to 6 of 7 accounts; Instagram failed: Too small.",
      postId: 'post_1',
      resolvedAt: ago(1000),
    });
    const open = createNotification({
      type: 'POST_FAILED',
      priority: 'HIGH',
      message: "'Autumn menu' could not be published to X: Token expired.",
      postId: 'post_2',
    });
    const { user } = await renderNotifications({ notifications: [resolved, open] });
    await screen.findByText('2 notifications available');

    const fixed = item(resolved.message);
    expect(within(fixed).getByText('Resolved')).toBeInTheDocument();
    expect(within(fixed).queryByText(/Unread/)).not.toBeInTheDocument();
    expect(within(fixed).queryByText('High')).not.toBeInTheDocument();
    expect(fixed).toHaveAttribute('data-resolved', 'true');

    const failing = item(open.message);
    expect(within(failing).queryByText('Resolved')).not.toBeInTheDocument();
    expect(within(failing).getByText(/Unread/)).toBeInTheDocument();

    // Unread is what still asks for attention: only the open failure, as the badge counts it.
    expect(tab(/^Unread/)).toHaveTextContent('Unread1');
    await user.click(tab(/^Unread/));
    expect(shownMessages()).toEqual([open.message]);
    await user.click(tab(/^Read/));
    expect(shownMessages()).toEqual([resolved.message]);
  });
});
