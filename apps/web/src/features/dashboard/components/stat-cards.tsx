import { CalendarClock, FileText, MessageSquare, type LucideIcon } from 'lucide-react';
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
 * unread conversations (docs/inbox.md); a member who cannot see the inbox gets no number.
 */
export function StatCards({
  postCounts,
  engagement,
  unreadMessages = null,
}: {
  postCounts: Dashboard['postCounts'];
  engagement: Dashboard['engagement'];
  unreadMessages?: Dashboard['unreadMessages'];
}) {
  return (
    <section aria-label="Statistics" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        label="Total Posts"
        value={postCounts.total}
        hint="Drafts, scheduled and published"
        icon={FileText}
      />
      <StatCard
        label="Unread Messages"
        value={unreadMessages}
        hint={
          unreadMessages === null ? 'Only for members who can see the inbox' : 'Open conversations'
        }
        icon={MessageSquare}
      />
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
