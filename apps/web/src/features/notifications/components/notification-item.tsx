import type { Notification } from '@herald/contract';
import { Mail, MailOpen } from 'lucide-react';
import { RelativeTime } from '@/components/ui/relative-time';
import { cn } from '@/lib/cn';
import { isUnread, PRIORITY_STYLES, priorityLabel, TYPE_LABELS } from './notification-format';

/** A failure notice whose post was fixed or went out since: it asks for nothing more. */
export function ResolvedTag({ resolvedAt }: { resolvedAt: string | null }) {
  if (!resolvedAt) return null;
  return (
    <span
      className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800"
      title="The post was fixed or published since"
    >
      Resolved
    </span>
  );
}

export function PriorityBadge({ priority }: { priority: Notification['priority'] }) {
  return (
    <span
      className={cn(
        'rounded-full px-2 py-0.5 text-xs font-semibold',
        PRIORITY_STYLES[priority].badge,
      )}
    >
      {priorityLabel(priority)}
      <span className="sr-only"> priority</span>
    </span>
  );
}

interface NotificationItemProps {
  notification: Notification;
  isSelected: boolean;
  onSelect: () => void;
  onToggleRead: () => void;
}

/** One row: what happened, how urgent, when; selecting it opens it, the icon flips read state. */
export function NotificationItem({
  notification,
  isSelected,
  onSelect,
  onToggleRead,
}: NotificationItemProps) {
  const { read, type, priority, message, createdAt, resolvedAt } = notification;
  // A resolved failure no longer asks for attention: no unread dot, no urgent accent.
  const attention = isUnread(notification);
  const toggleLabel = read ? 'Mark as unread' : 'Mark as read';
  return (
    <li
      aria-label={message}
      data-read={read}
      data-resolved={Boolean(resolvedAt)}
      className={cn(
        'flex items-start gap-1 border-l-4 py-1 pr-1',
        resolvedAt ? 'border-l-emerald-300' : PRIORITY_STYLES[priority].accent,
        isSelected ? 'bg-indigo-50' : attention ? 'bg-slate-50' : 'bg-white',
      )}
    >
      <button
        type="button"
        onClick={onSelect}
        aria-current={isSelected ? 'true' : undefined}
        className="flex min-w-0 flex-1 flex-col gap-1 rounded-md px-3 py-2 text-left hover:bg-slate-100/70 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <span className="flex flex-wrap items-center gap-2">
          {attention && (
            <span className="size-2 shrink-0 rounded-full bg-indigo-600">
              <span className="sr-only">Unread: </span>
            </span>
          )}
          <span
            className={cn('text-sm text-slate-900', attention ? 'font-semibold' : 'font-medium')}
          >
            {TYPE_LABELS[type]}
          </span>
          {resolvedAt ? (
            <ResolvedTag resolvedAt={resolvedAt} />
          ) : (
            <PriorityBadge priority={priority} />
          )}
        </span>
        <span className="line-clamp-2 text-sm text-slate-700">{message}</span>
        <RelativeTime iso={createdAt} />
      </button>
      <button
        type="button"
        onClick={onToggleRead}
        aria-label={toggleLabel}
        title={toggleLabel}
        className="mt-1 rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {read ? (
          <Mail className="size-4" aria-hidden="true" />
        ) : (
          <MailOpen className="size-4" aria-hidden="true" />
        )}
      </button>
    </li>
  );
}
