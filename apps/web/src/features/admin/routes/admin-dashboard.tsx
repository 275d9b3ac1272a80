import { Layers, Users, WalletCards, type LucideIcon } from 'lucide-react';
import dayjs from 'dayjs';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { LoadError } from '@/components/ui/load-error';
import { LoadingIndicator } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { operatorTimeZone, useAdminActivity, useAdminOverview } from '../api/dashboard';
import { ActivityChart } from '../components/activity-chart';
import { AuditLog } from '../components/audit-log';

export const OVERVIEW_LOAD_FAILED = 'Failed to fetch dashboard data.';
export const ACTIVITY_LOAD_FAILED = 'Failed to fetch the activity chart.';
/** docs/product.md#admin-dashboard: the date format of the back-office dashboard. */
export const DATE_FORMAT = 'MMMM DD, YYYY [at] hh:mm A';

/** The current time, moving on every minute. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function CountCard({
  to,
  label,
  value,
  icon: Icon,
}: {
  to: string;
  label: string;
  value: number | undefined;
  icon: LucideIcon;
}) {
  return (
    <Link
      to={to}
      className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 hover:shadow focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-indigo-50 text-indigo-700">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <span className="flex flex-col">
        <span className="text-sm text-slate-600">{label}</span>
        <span className="text-2xl font-bold text-slate-900">{value ?? '—'}</span>
      </span>
    </Link>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = `panel-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={id} className="mb-4 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function ActivityPanel() {
  const [timezone] = useState(operatorTimeZone);
  const activity = useAdminActivity(timezone);
  return (
    <Panel title="Activity, last 30 days">
      {activity.isPending && (
        <LoadingIndicator label="Loading the activity chart" className="py-10" />
      )}
      {activity.isError && (
        <LoadError
          message={errorMessage(activity.error, ACTIVITY_LOAD_FAILED)}
          onRetry={() => void activity.refetch()}
        />
      )}
      {activity.data && <ActivityChart days={activity.data.days} />}
    </Panel>
  );
}

/** /admin/dashboard (docs/product.md#admin-dashboard): a greeting, the three totals, activity and the audit log. */
export function AdminDashboardPage() {
  const { user } = useAuth();
  const now = useNow();
  const overview = useAdminOverview();
  const name = user?.displayName?.trim();
  const counts = overview.data?.counts;

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <title>Admin Dashboard · Herald back-office</title>
      <div>
        <h1 className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">
          Admin Dashboard
        </h1>
        <p className="mt-1 text-2xl font-bold tracking-tight text-slate-900">
          {name ? `Hi, ${name}!` : 'Hi!'}
        </p>
        <p className="mt-1 text-slate-600">
          <time dateTime={now.toISOString()}>{dayjs(now).format(DATE_FORMAT)}</time>
        </p>
      </div>
      {overview.isError && (
        <LoadError
          message={errorMessage(overview.error, OVERVIEW_LOAD_FAILED)}
          onRetry={() => void overview.refetch()}
        />
      )}
      <nav aria-label="Totals" className="grid gap-4 sm:grid-cols-3">
        <CountCard to={paths.adminUsers} label="Users" value={counts?.users} icon={Users} />
        <CountCard
          to={paths.adminPlatforms}
          label="Platforms"
          value={counts?.platforms}
          icon={Layers}
        />
        <CountCard to={paths.adminPlans} label="Plans" value={counts?.plans} icon={WalletCards} />
      </nav>
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <ActivityPanel />
        <Panel title="Audit log">
          <AuditLog />
        </Panel>
      </div>
    </div>
  );
}
