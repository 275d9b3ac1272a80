import { NotificationSchema } from '@herald/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { NOTIFICATION_POLL_MS } from '@/config/timing';
import { API_BASE } from './api-client';
import { handleInboxEvent, handleTypingEvent, inboxKeys } from './inbox';
import {
  addNotification,
  holdPostToast,
  isPostQuiet,
  notificationKeys,
  takeQuietNotification,
} from './notifications';
import { postKeys } from './posts';
import { toast } from './toast';

/** EventSource.CLOSED: the browser gave up and will not reconnect by itself. */
const CLOSED = 2;

export function notificationStreamUrl(orgId: string): string {
  return `${API_BASE}/notifications/stream?organizationId=${encodeURIComponent(orgId)}`;
}

/**
 * Keeps the organization's notifications live while the shell is open: the server pushes each
 * new one over Server-Sent Events; it goes into the cache (list and unread count) and shows a
 * toast. While the stream is down, notifications are fetched every 30 seconds instead, and each
 * of those rounds also tries the stream again if the browser has given up on it (the server
 * refuses a stream whose session expired; the fetch refreshes the session first).
 */
export function useNotificationStream(orgId: string | null) {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!orgId) return undefined;
    let source: EventSource | null = null;
    let poll: ReturnType<typeof setInterval> | null = null;

    const refetch = () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: notificationKeys.org(orgId) }),
        // While the stream is down the inbox is fetched on the same beat.
        queryClient.invalidateQueries({ queryKey: inboxKeys.org(orgId) }),
      ]);

    const stopPolling = () => {
      if (poll) clearInterval(poll);
      poll = null;
    };

    const onNotification = (event: MessageEvent<string>) => {
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      const parsed = NotificationSchema.safeParse(data);
      if (!parsed.success) return;
      const { postId } = parsed.data;
      // A publication's outcome: the post's open screens show it now, not at their next poll.
      if (postId) void queryClient.invalidateQueries({ queryKey: postKeys.detail(orgId, postId) });
      if (
        addNotification(queryClient, orgId, parsed.data) &&
        !takeQuietNotification(parsed.data.type) &&
        !isPostQuiet(postId)
      ) {
        const show = () => toast(parsed.data.message, { id: `notification-${parsed.data.id}` });
        if (!holdPostToast(postId, show)) show();
      }
    };

    const connect = () => {
      source?.close();
      source = null;
      if (typeof EventSource === 'undefined') {
        startPolling();
        return;
      }
      const stream = new EventSource(notificationStreamUrl(orgId), { withCredentials: true });
      stream.addEventListener('notification', onNotification);
      // The inbox's live changes ride the same stream (docs/inbox.md).
      stream.addEventListener('inbox', (event: MessageEvent<string>) =>
        handleInboxEvent(queryClient, orgId, event.data),
      );
      stream.addEventListener('inbox-typing', (event: MessageEvent<string>) =>
        handleTypingEvent(orgId, event.data),
      );
      // Back after an outage: stop polling, and fetch once for what was missed meanwhile.
      stream.addEventListener('open', () => {
        if (!poll) return;
        stopPolling();
        void refetch();
      });
      stream.addEventListener('error', () => startPolling());
      source = stream;
    };

    function startPolling() {
      poll ??= setInterval(() => {
        void refetch();
        if (!source || source.readyState === CLOSED) connect();
      }, NOTIFICATION_POLL_MS);
    }

    connect();
    return () => {
      stopPolling();
      source?.close();
    };
  }, [orgId, queryClient]);
}
