import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_POLL_MS } from '@/config/timing';
import { createMe } from '@/testing/factories';
import { FakeEventSource } from '@/testing/fake-event-source';
import { createNotification, notificationRoutes } from '@/testing/notification-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

afterEach(() => {
  vi.useRealTimers();
});

const older = createNotification({ id: 'ntf_old', message: 'An older notice.', read: true });

async function renderLive(path = '/notifications') {
  const fixture = notificationRoutes([older]);
  const server = mockServer({ me: createMe(), routes: fixture });
  const app = renderApp(path);
  await screen.findByRole('heading', { level: 1 });
  return { ...app, server, fixture };
}

const listCalls = (server: Awaited<ReturnType<typeof renderLive>>['server']) =>
  server.requests.filter((r) => r.path === '/notifications' && !r.query.has('limit')).length;

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });

describe('live notifications', () => {
  it("opens one stream of the current organization's notifications, with cookies", async () => {
    await renderLive();
    const stream = FakeEventSource.latest();
    expect(stream.url).toBe('/api/notifications/stream?organizationId=org_1');
    expect(stream.withCredentials).toBe(true);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('puts a streamed notification at the top of the open page, toasts it and counts it', async () => {
    await renderLive();
    expect(await screen.findByText('1 notification available')).toBeInTheDocument();
    const stream = FakeEventSource.latest();
    stream.open();

    const fresh = createNotification({
      id: 'ntf_new',
      message: 'Your 7-day free trial of Basic has started.',
      createdAt: new Date().toISOString(),
    });
    stream.emit('notification', fresh);

    const list = screen.getByRole('region', { name: 'Notification list' });
    // The cache tells its readers on the next tick.
    await waitFor(() =>
      expect(within(list).getAllByRole('listitem')[0]).toHaveAccessibleName(fresh.message),
    );
    expect(within(list).getByText('Just now')).toBeInTheDocument();
    expect(screen.getByText('2 notifications available')).toBeInTheDocument();
    // In the list and in a toast.
    expect(screen.getAllByText(fresh.message)).toHaveLength(2);
    expect(
      await within(mainNav()).findByRole('link', { name: 'Notifications 1 unread' }),
    ).toBeInTheDocument();

    // The same one again (a reconnecting stream) changes nothing.
    stream.emit('notification', fresh);
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(mainNav()).getByRole('link', { name: 'Notifications 1 unread' }));
  });

  it('raises the sidebar badge on any page of the shell', async () => {
    const fixture = notificationRoutes([createNotification({ message: 'Unread already.' })]);
    mockServer({ me: createMe(), routes: fixture });
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1 });
    const stream = FakeEventSource.latest();
    stream.open();
    expect(
      await within(mainNav()).findByRole('link', { name: 'Notifications 1 unread' }),
    ).toBeInTheDocument();

    stream.emit('notification', createNotification({ message: 'A post failed.' }));

    expect(
      await within(mainNav()).findByRole('link', { name: 'Notifications 2 unread' }),
    ).toBeInTheDocument();
    expect(screen.getByText('A post failed.')).toBeInTheDocument();
  });

  it('ignores events that are not notifications', async () => {
    await renderLive();
    await screen.findByText('1 notification available');
    const stream = FakeEventSource.latest();
    stream.emit('notification', 'not json');
    stream.emit('notification', { id: 'x' });
    stream.emit('notification', createNotification({ message: 'The real one.' }));
    expect(await screen.findByText('2 notifications available')).toBeInTheDocument();
  });

  it('fetches every 30 s while the stream is down, and stops once it is back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { server } = await renderLive();
    await screen.findByText('1 notification available');
    const first = FakeEventSource.latest();
    first.open();
    const start = listCalls(server);

    // The browser retries by itself: meanwhile the page polls.
    first.fail();
    await act(() => vi.advanceTimersByTimeAsync(NOTIFICATION_POLL_MS));
    await waitFor(() => expect(listCalls(server)).toBe(start + 1));
    expect(FakeEventSource.instances).toHaveLength(1);

    // Back: one catch-up fetch, then no more polling.
    first.open();
    await waitFor(() => expect(listCalls(server)).toBe(start + 2));
    await act(() => vi.advanceTimersByTimeAsync(NOTIFICATION_POLL_MS * 2));
    expect(listCalls(server)).toBe(start + 2);
  });

  it('opens a new stream after a poll when the browser gave up on the old one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { server } = await renderLive();
    await screen.findByText('1 notification available');
    const refused = FakeEventSource.latest();
    const start = listCalls(server);

    refused.fail({ closed: true });
    await act(() => vi.advanceTimersByTimeAsync(NOTIFICATION_POLL_MS));

    await waitFor(() => expect(listCalls(server)).toBe(start + 1));
    expect(FakeEventSource.instances).toHaveLength(2);
    const again = FakeEventSource.latest();
    expect(again).not.toBe(refused);
    again.open();
    again.emit('notification', createNotification({ message: 'Live again.' }));
    expect(await screen.findAllByText('Live again.')).not.toHaveLength(0);
  });

  it('closes the stream when the shell goes away', async () => {
    const { unmount } = await renderLive();
    const stream = FakeEventSource.latest();
    unmount();
    expect(stream.readyState).toBe(FakeEventSource.CLOSED);
  });
});
