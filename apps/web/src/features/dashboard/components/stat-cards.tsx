import { CalendarClock, FileText, MessageSquare, type LucideIcon } from 'lucide-react';
import { useInboxSummary } from '@/lib/inbox';
import { usePermissions } from '@/lib/permissions';
import type { Dashboard } from '../api/dashboard';
import { EngagementCard } from './engagement-card';
import { NO_DATA } from './no-data';

function StatCard({
  label,
  value,
  hint,
  icon: Icon,
}: {
  label: string;
  value: number | null;
  hint: string;
  icon: LucideIcon;
}) {
  return (
    <div className="flex items-start gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-indigo-50 text-indigo-700">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <dl className="min-w-0">
        <dt className="text-sm text-slate-600">{label}</dt>
        <dd
          className={
            value === null
              ? 'py-1 text-base font-semibold text-slate-500'
              : 'text-2xl font-bold text-slate-900'
          }
        >
          {value === null ? NO_DATA : value}
        </dd>
        <dd className="text-xs text-slate-500">{hint}</dd>
      </dl>
    </div>
  );
}

/**
 * The four figures of docs/product.md#dashboard. Unread Messages is the inbox's count of open
 * unread conversations (absent for a member without dm:view, who cannot open the inbox).
 */
export function StatCards({
  orgId,
  postCounts,
  engagement,
}: {
  orgId: string;
  postCounts: Dashboard['postCounts'];
  engagement: Dashboard['engagement'];
}) {
  const canViewInbox = usePermissions().has('dm:view');
  const inbox = useInboxSummary(orgId, { enabled: canViewInbox });
  return (
    <section aria-label="Statistics" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        label="Total Posts"
        value={postCounts.total}
        hint="Drafts, scheduled and published"
        icon={FileText}
      />
      {canViewInbox && (
        <StatCard
          label="Unread Messages"
          value={inbox.data?.unreadCount ?? null}
          hint="Open conversations in the inbox"
          icon={MessageSquare}
        />
      )}
      <StatCard
        label="Upcoming Scheduled"
        value={postCounts.upcoming}
        hint="Waiting to be published"
        icon={CalendarClock}
      />
      <EngagementCard engagement={engagement} />
    </section>
  );
}
