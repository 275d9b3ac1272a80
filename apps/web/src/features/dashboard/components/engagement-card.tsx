import { ArrowDownRight, ArrowUpRight, Minus, TrendingUp } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import type { Dashboard } from '../api/dashboard';
import { NO_DATA } from './no-data';

export const NOT_PERMITTED = 'Not shared with your role';

const percent = (rate: number) => `${(rate * 100).toFixed(rate < 0.1 ? 2 : 1)}%`;

/** "+12.5%" / "−3.0%" / "0%": the relative change of the rate, with a real minus sign. */
function changeText(change: number) {
  const size = Math.abs(change * 100);
  const text = `${size >= 100 ? Math.round(size) : size.toFixed(1)}%`;
  return change > 0 ? `+${text}` : change < 0 ? `−${text}` : '0%';
}

function Trend({ change }: { change: number | null }) {
  if (change === null)
    return <p className="text-xs text-slate-500">No comparison with the previous 30 days</p>;
  const Icon = change > 0 ? ArrowUpRight : change < 0 ? ArrowDownRight : Minus;
  return (
    <p
      className={cn(
        'flex items-start gap-1 text-xs font-medium',
        change > 0 ? 'text-emerald-700' : change < 0 ? 'text-red-700' : 'text-slate-600',
      )}
    >
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      <span>
        {changeText(change)}{' '}
        <span className="font-normal text-slate-500">vs the previous 30 days</span>
      </span>
    </p>
  );
}

/**
 * The dashboard's Engagement Rate: the last 30 days from the networks' own metrics, computed by
 * the server as /analytics computes it, with the trend and the formula. `engagement` is null for
 * a member whose role does not include analytics.
 */
export function EngagementCard({ engagement }: { engagement: Dashboard['engagement'] }) {
  const value = engagement?.value ?? null;
  return (
    <div className="flex items-start gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-indigo-50 text-indigo-700">
        <TrendingUp className="size-5" aria-hidden="true" />
      </span>
      <dl className="min-w-0">
        <dt className="text-sm text-slate-600">Engagement Rate</dt>
        <dd
          className={
            value === null
              ? 'py-1 text-base font-semibold text-slate-500'
              : 'text-2xl font-bold text-slate-900'
          }
        >
          {engagement === null ? NOT_PERMITTED : value === null ? NO_DATA : percent(value)}
        </dd>
        {engagement === null ? (
          <dd className="text-xs text-slate-500">Needs the View analytics permission</dd>
        ) : (
          <>
            <dd>
              {value === null ? (
                <p className="text-xs text-slate-500">
                  No post published in the last 30 days has been read yet
                </p>
              ) : (
                <Trend change={engagement.change} />
              )}
            </dd>
            <dd className="mt-1 text-xs text-slate-500">{`Rate = ${engagement.formula}`}</dd>
            <dd className="mt-1 text-xs">
              <Link
                to={`${paths.analytics}?range=30`}
                className="font-medium text-indigo-700 underline-offset-2 hover:underline"
              >
                Open analytics
              </Link>
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
