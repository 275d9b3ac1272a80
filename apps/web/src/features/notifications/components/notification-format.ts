import { NOTIFICATION_TYPE_LABELS, type Notification } from '@herald/contract';

export type Priority = Notification['priority'];

/** The name of each type, as the list, the details and the emails say it. */
export const TYPE_LABELS = NOTIFICATION_TYPE_LABELS;

export const PRIORITIES: ReadonlyArray<{ value: Priority; label: string }> = [
  { value: 'HIGH', label: 'High' },
  { value: 'MEDIUM', label: 'Medium' },
  { value: 'LOW', label: 'Low' },
];

export const priorityLabel = (priority: Priority) =>
  PRIORITIES.find((p) => p.value === priority)?.label ?? priority;

/** Red for high, amber for medium, green for low: badge and the accent of the list item. */
export const PRIORITY_STYLES: Record<Priority, { badge: string; accent: string }> = {
  HIGH: { badge: 'bg-red-100 text-red-800', accent: 'border-l-red-500' },
  MEDIUM: { badge: 'bg-amber-100 text-amber-900', accent: 'border-l-amber-500' },
  LOW: { badge: 'bg-emerald-100 text-emerald-800', accent: 'border-l-emerald-500' },
};

export type ReadTab = 'all' | 'unread' | 'read';

export const TABS: ReadonlyArray<{ value: ReadTab; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
  { value: 'read', label: 'Read' },
];

/** The list as the tab and the priority filter (none chosen = every priority) narrow it. */
/**
 * Unread means "still asks for attention": a resolved failure is done whether or not it was
 * opened, so it counts and lists as read, as the unread badge counts it.
 */
export const isUnread = (n: Pick<Notification, 'read' | 'resolvedAt'>) => !n.read && !n.resolvedAt;

export function filterNotifications(
  notifications: readonly Notification[],
  tab: ReadTab,
  priorities: readonly Priority[],
): Notification[] {
  return notifications.filter(
    (n) =>
      (tab === 'all' || isUnread(n) === (tab === 'unread')) &&
      (priorities.length === 0 || priorities.includes(n.priority)),
  );
}

export const countLabel = (count: number) =>
  `${count} ${count === 1 ? 'notification' : 'notifications'} available`;
