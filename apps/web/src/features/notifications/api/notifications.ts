import {
  NotificationResponseSchema,
  ReadAllResponseSchema,
  type Notification,
} from '@herald/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import {
  adjustUnreadCount,
  notificationKeys,
  restoreNotifications,
  setReadInCache,
  snapshotNotifications,
  type NotificationsSnapshot,
} from '@/lib/notifications';
import { toastError } from '@/lib/toast';

export const MARK_ALL_FAILED = 'Failed to mark all as read';
export const MARK_ONE_FAILED = 'Failed to mark notification as read/unread';

/**
 * The read state changes on screen at once; a refusal puts the previous state back and says so
 * (docs/product.md#messages). Afterwards the server's unread count is fetched again, as the truth.
 */
function useOptimistic<V>(
  orgId: string,
  apply: (variables: V) => void,
  request: (variables: V) => Promise<unknown>,
  failure: string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onMutate: async (variables: V): Promise<NotificationsSnapshot> => {
      await queryClient.cancelQueries({ queryKey: notificationKeys.org(orgId) });
      const snapshot = snapshotNotifications(queryClient, orgId);
      apply(variables);
      return snapshot;
    },
    onError: (error, _variables, snapshot) => {
      if (snapshot) restoreNotifications(queryClient, orgId, snapshot);
      toastError(error, failure, `notifications-${failure}`);
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount(orgId) }),
  });
}

/** `PATCH /notifications/{id}/read` or `/unread`. */
export function useSetRead(orgId: string) {
  const queryClient = useQueryClient();
  return useOptimistic(
    orgId,
    ({ notification, read }: { notification: Notification; read: boolean }) => {
      if (notification.read === read) return;
      setReadInCache(queryClient, orgId, notification.id, read);
      // A resolved notice is not in the unread count either way.
      if (!notification.resolvedAt) adjustUnreadCount(queryClient, orgId, read ? -1 : 1);
    },
    ({ notification, read }) =>
      apiClient.patch(
        `/notifications/${encodeURIComponent(notification.id)}/${read ? 'read' : 'unread'}`,
        undefined,
        { schema: NotificationResponseSchema },
      ),
    MARK_ONE_FAILED,
  );
}

/** `PATCH /notifications/read-all` for the organization. */
export function useMarkAllRead(orgId: string) {
  const queryClient = useQueryClient();
  return useOptimistic(
    orgId,
    () => {
      setReadInCache(queryClient, orgId, null, true);
      queryClient.setQueryData<number>(notificationKeys.unreadCount(orgId), (count) =>
        count === undefined ? count : 0,
      );
    },
    () =>
      apiClient.patch(
        '/notifications/read-all',
        { organizationId: orgId },
        { schema: ReadAllResponseSchema },
      ),
    MARK_ALL_FAILED,
  );
}
