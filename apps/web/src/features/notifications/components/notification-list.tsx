import type { Notification } from '@herald/contract';
import { CheckCheck } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LoadingIndicator } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import {
  filterNotifications,
  isUnread,
  TABS,
  type Priority,
  type ReadTab,
} from './notification-format';
import { NotificationItem } from './notification-item';
import { PriorityFilter } from './priority-filter';
import { LIST_PANEL_ID, ReadTabs, tabId } from './read-tabs';

export const FETCH_FAILED = 'Failed to fetch notifications';

function emptyText(total: number, tab: ReadTab, priorities: readonly Priority[]): string {
  if (total === 0) return 'You have no notifications yet.';
  if (priorities.length > 0) return 'No notifications match the selected priorities.';
  return tab === 'unread' ? 'No unread notifications.' : 'No read notifications.';
}

interface NotificationListProps {
  notifications: Notification[] | undefined;
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  tab: ReadTab;
  onTabChange: (tab: ReadTab) => void;
  priorities: Priority[];
  onPrioritiesChange: (next: Priority[]) => void;
  selectedId: string | null;
  onSelect: (notification: Notification) => void;
  onToggleRead: (notification: Notification) => void;
  onMarkAllRead: () => void;
  isMarkingAll: boolean;
}

/** The left-hand pane: tabs, mark all read, the priority filter and the list itself. */
export function NotificationList({
  notifications,
  isLoading,
  error,
  onRetry,
  tab,
  onTabChange,
  priorities,
  onPrioritiesChange,
  selectedId,
  onSelect,
  onToggleRead,
  onMarkAllRead,
  isMarkingAll,
}: NotificationListProps) {
  const all = notifications ?? [];
  const unread = all.filter(isUnread).length;
  const counts = { all: all.length, unread, read: all.length - unread };
  const visible = filterNotifications(all, tab, priorities);
  const tabLabel = TABS.find((t) => t.value === tab)?.label ?? 'All';

  const renderBody = () => {
    if (isLoading) return <LoadingIndicator label="Loading notifications" className="py-12" />;
    if (error) {
      const detail = errorMessage(error, FETCH_FAILED);
      return (
        <Alert className="m-4">
          <p className="font-semibold">{FETCH_FAILED}</p>
          {detail !== FETCH_FAILED && <p>{detail}</p>}
          <button type="button" className="mt-1 font-semibold underline" onClick={onRetry}>
            Try again
          </button>
        </Alert>
      );
    }
    if (visible.length === 0) {
      return (
        <p className="px-6 py-12 text-center text-sm text-slate-600">
          {emptyText(all.length, tab, priorities)}
        </p>
      );
    }
    return (
      <ul aria-label={`${tabLabel} notifications`} className="divide-y divide-slate-100">
        {visible.map((notification) => (
          <NotificationItem
            key={notification.id}
            notification={notification}
            isSelected={notification.id === selectedId}
            onSelect={() => onSelect(notification)}
            onToggleRead={() => onToggleRead(notification)}
          />
        ))}
      </ul>
    );
  };

  return (
    <section
      aria-label="Notification list"
      className="flex min-w-0 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex flex-col gap-3 border-b border-slate-200 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <ReadTabs value={tab} counts={counts} onChange={onTabChange} />
          <Button
            variant="ghost"
            size="sm"
            onClick={onMarkAllRead}
            disabled={unread === 0 || isMarkingAll}
          >
            <CheckCheck className="size-4" aria-hidden="true" />
            Mark all as read
          </Button>
        </div>
        <PriorityFilter selected={priorities} onChange={onPrioritiesChange} />
      </div>
      <div
        id={LIST_PANEL_ID}
        role="tabpanel"
        aria-labelledby={tabId(tab)}
        className="max-h-[70dvh] overflow-y-auto"
      >
        {renderBody()}
      </div>
    </section>
  );
}
