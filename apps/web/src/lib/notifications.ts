import {
  NotificationListSchema,
  NotificationPageSchema,
  type Notification,
} from '@herald/contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiClient } from './api-client';

/**
 * The signed-in user's notifications in one organization. The shell (unread badge, live
 * stream) and the notifications page both read them, so they live here: features may not
 * import each other.
 */
export const notificationKeys = {
  org: (orgId: string) => ['notifications', orgId] as const,
  list: (orgId: string) => ['notifications', orgId, 'list'] as const,
  unreadCount: (orgId: string) => ['notifications', orgId, 'unread-count'] as const,
};

const query = (orgId: string, extra = '') =>
  `/notifications?organizationId=${encodeURIComponent(orgId)}${extra}`;

/** `GET /notifications?organizationId=`: the newest notifications (up to 100), newest first. */
export function useNotifications(orgId: string) {
  return useQuery({
    queryKey: notificationKeys.list(orgId),
    queryFn: async (): Promise<Notification[]> =>
      apiClient.get(query(orgId), { schema: NotificationListSchema }),
    enabled: Boolean(orgId),
  });
}

/**
 * How many are unread, counted by the server over all of them (the list stops at 100): one
 * page of one notification carries the count.
 */
export function useUnreadCount(orgId: string | null) {
  return useQuery({
    queryKey: notificationKeys.unreadCount(orgId ?? ''),
    queryFn: async (): Promise<number> => {
      const page = await apiClient.get(query(orgId ?? '', '&limit=1'), {
        schema: NotificationPageSchema,
      });
      return page.meta.unreadCount;
    },
    enabled: Boolean(orgId),
  });
}

/** A snapshot of both caches, to put back when an optimistic change fails. */
export interface NotificationsSnapshot {
  list: Notification[] | undefined;
  unreadCount: number | undefined;
}

export function snapshotNotifications(queryClient: QueryClient, orgId: string) {
  return {
    list: queryClient.getQueryData<Notification[]>(notificationKeys.list(orgId)),
    unreadCount: queryClient.getQueryData<number>(notificationKeys.unreadCount(orgId)),
  };
}

export function restoreNotifications(
  queryClient: QueryClient,
  orgId: string,
  snapshot: NotificationsSnapshot,
) {
  queryClient.setQueryData(notificationKeys.list(orgId), snapshot.list);
  queryClient.setQueryData(notificationKeys.unreadCount(orgId), snapshot.unreadCount);
}

/** Changes the cached count by `delta`, never below zero (nothing happens when none is cached). */
export function adjustUnreadCount(queryClient: QueryClient, orgId: string, delta: number) {
  queryClient.setQueryData<number>(notificationKeys.unreadCount(orgId), (count) =>
    count === undefined ? count : Math.max(0, count + delta),
  );
}

/**
 * Adds a notification that just arrived. Returns false when it was already there (a stream
 * that reconnects may repeat one the list has fetched meanwhile).
 */
export function addNotification(
  queryClient: QueryClient,
  orgId: string,
  notification: Notification,
): boolean {
  const list = queryClient.getQueryData<Notification[]>(notificationKeys.list(orgId));
  if (list?.some((n) => n.id === notification.id)) return false;
  if (list) {
    const next = [notification, ...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    queryClient.setQueryData(notificationKeys.list(orgId), next);
  }
  if (!notification.read) adjustUnreadCount(queryClient, orgId, 1);
  return true;
}

/** Sets `read` on one cached notification (or on all when `id` is null). */
export function setReadInCache(
  queryClient: QueryClient,
  orgId: string,
  id: string | null,
  read: boolean,
) {
  queryClient.setQueryData<Notification[]>(notificationKeys.list(orgId), (list) =>
    list?.map((n) => (id === null || n.id === id ? { ...n, read } : n)),
  );
}

/**
 * A screen that confirms its own action with a toast ("Free trial started successfully!") asks
 * the live stream not to toast the notification the same action produces: one toast per action.
 * The next notification of `type` within `ms` is then only added to the list, not toasted.
 */
const quiet = new Map<Notification['type'], number>();

export function quietNextNotification(type: Notification['type'], ms = 15_000): () => void {
  quiet.set(type, Date.now() + ms);
  return () => quiet.delete(type);
}

/** Whether a notification of `type` arriving now was announced by the screen already (once). */
export function takeQuietNotification(type: Notification['type'], now = Date.now()): boolean {
  const until = quiet.get(type);
  if (until === undefined) return false;
  quiet.delete(type);
  return until > now;
}

/**
 * A screen that follows one post's publishing account by account (the composer's Publish now
 * progress) says how it went in one summary toast: the outcome notifications of that post are
 * then only added to the list, not toasted one per account.
 */
const quietPosts = new Map<string, number>();

export function quietPostNotifications(postId: string, ms = 10 * 60_000): () => void {
  quietPosts.set(postId, Date.now() + ms);
  return () => quietPosts.delete(postId);
}

/** Whether a notification about `postId` arriving now is already told by a screen. */
export function isPostQuiet(postId: string | null, now = Date.now()): boolean {
  if (!postId) return false;
  const until = quietPosts.get(postId);
  if (until === undefined) return false;
  if (until > now) return true;
  quietPosts.delete(postId);
  return false;
}

/**
 * Publish now's outcomes can arrive before its answer does (a text post on X is out in a fraction
 * of a second): while a Publish now request is on its way, the stream holds back the toasts of
 * post notifications it cannot place yet. `follow(postId)` then drops those of that post (its
 * screen tells them) and shows the others; `release()` shows them all.
 */
interface Hold {
  held: Array<{ postId: string; show: () => void }>;
}
const holds = new Set<Hold>();

export function holdPostNotifications() {
  const hold: Hold = { held: [] };
  holds.add(hold);
  const end = (quietPostId: string | null) => {
    if (!holds.delete(hold)) return;
    if (quietPostId) quietPostNotifications(quietPostId);
    for (const { postId, show } of hold.held) if (postId !== quietPostId) show();
  };
  return { follow: (postId: string) => end(postId), release: () => end(null) };
}

/** Keeps `show` for a running hold; false when none runs (the caller shows it now). */
export function holdPostToast(postId: string | null, show: () => void): boolean {
  const [hold] = holds;
  if (!postId || !hold) return false;
  hold.held.push({ postId, show });
  return true;
}
