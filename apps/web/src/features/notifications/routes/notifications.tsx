import type { Notification } from '@herald/contract';
import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { notificationKeys, useNotifications } from '@/lib/notifications';
import { toastError } from '@/lib/toast';
import { useMarkAllRead, useSetRead } from '../api/notifications';
import { NotificationDetail } from '../components/notification-detail';
import { countLabel, type Priority, type ReadTab } from '../components/notification-format';
import { FETCH_FAILED, NotificationList } from '../components/notification-list';

/** /notifications (docs/product.md#notifications): the list with tabs and filters, and the chosen one's details. */
export function NotificationsPage() {
  const { currentOrgId } = useAuth();
  const orgId = currentOrgId ?? '';
  const queryClient = useQueryClient();
  const list = useNotifications(orgId);
  const setRead = useSetRead(orgId);
  const markAllRead = useMarkAllRead(orgId);
  const [tab, setTab] = useState<ReadTab>('all');
  const [priorities, setPriorities] = useState<Priority[]>([]);
  // The chosen notification is in the address, so a reload or a shared link reopens it.
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedId = searchParams.get('id');
  // A failed background fetch keeps the list that is already on screen.
  const loadError = list.data ? null : list.error;

  const refresh = async () => {
    void queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount(orgId) });
    const result = await list.refetch();
    // Without a list the pane shows the failure; over a list already shown, a toast says it.
    if (result.isError && result.data) toastError(result.error, FETCH_FAILED, 'notifications');
  };
  const toggleRead = (notification: Notification) =>
    setRead.mutate({ notification, read: !notification.read });
  const select = (notification: Notification) => {
    setSearchParams({ id: notification.id }, { replace: true });
    // docs/product.md#notification-states: opening an unread notification reads it.
    if (!notification.read) setRead.mutate({ notification, read: true });
  };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <title>Notifications · Herald</title>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Notifications</h1>
          <p className="mt-1 text-slate-600" aria-live="polite">
            {list.data ? countLabel(list.data.length) : '\u00a0'}
          </p>
        </div>
        <Button variant="secondary" onClick={() => void refresh()} disabled={list.isFetching}>
          <RefreshCw
            className={cn('size-4', list.isFetching && 'animate-spin')}
            aria-hidden="true"
          />
          Refresh
        </Button>
      </header>
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <NotificationList
          notifications={list.data}
          isLoading={list.isPending}
          error={loadError}
          onRetry={() => void list.refetch()}
          tab={tab}
          onTabChange={setTab}
          priorities={priorities}
          onPrioritiesChange={setPriorities}
          selectedId={selectedId}
          onSelect={select}
          onToggleRead={toggleRead}
          onMarkAllRead={() => markAllRead.mutate(undefined)}
          isMarkingAll={markAllRead.isPending}
        />
        <NotificationDetail
          selectedId={selectedId}
          notification={list.data?.find((n) => n.id === selectedId)}
          isLoading={list.isPending}
          error={loadError}
          onRetry={() => void list.refetch()}
          onToggleRead={toggleRead}
        />
      </div>
    </div>
  );
}
