import { ArrowDownRight, ArrowUpRight, Minus } from 'lucide-react';
import type { AnalyticsKpi, AnalyticsOverview } from '@herald/contract';
import { cn } from '@/lib/cn';
import { formatChange, formatCount, formatRate, formatSigned } from './format';

type Kpis = AnalyticsOverview['kpis'];

export const NO_METRIC = 'No data';

function Change({ kpi, days }: { kpi: AnalyticsKpi; days: number }) {
  const period = `the previous ${days} ${days === 1 ? 'day' : 'days'}`;
  if (kpi.change === null)
    return <p className="text-xs text-slate-500">{`No comparison with ${period}`}</p>;
  const Icon = kpi.change > 0 ? ArrowUpRight : kpi.change < 0 ? ArrowDownRight : Minus;
  return (
    <p
      className={cn(
        'flex items-start gap-1 text-xs font-medium',
        kpi.change > 0 ? 'text-emerald-700' : kpi.change < 0 ? 'text-red-700' : 'text-slate-600',
      )}
    >
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      <span>
        {formatChange(kpi.change)}{' '}
        <span className="font-normal text-slate-500">{`vs ${period}`}</span>
      </span>
    </p>
  );
}

function KpiCard({
  label,
  kpi,
  days,
  format,
  hint,
}: {
  label: string;
  kpi: AnalyticsKpi;
  days: number;
  format: (value: number | null) => string;
  hint?: string;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1 rounded-2xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd
        className={
          kpi.value === null
            ? 'py-1 text-base font-semibold text-slate-500'
            : 'text-xl font-bold text-slate-900 sm:text-2xl'
        }
      >
        {kpi.value === null ? NO_METRIC : format(kpi.value)}
      </dd>
      <dd>
        <Change kpi={kpi} days={days} />
      </dd>
      {hint && <dd className="text-xs text-slate-500">{hint}</dd>}
    </div>
  );
}

/** The six figures of the range, each with its change against the previous period. */
export function KpiCards({ kpis, days, formula }: { kpis: Kpis; days: number; formula: string }) {
  return (
    <section aria-label="Key figures">
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
        <KpiCard label="Views" kpi={kpis.views} days={days} format={formatCount} />
        <KpiCard label="Reach" kpi={kpis.reach} days={days} format={formatCount} />
        <KpiCard label="Interactions" kpi={kpis.interactions} days={days} format={formatCount} />
        <KpiCard
          label="Engagement rate"
          kpi={kpis.engagementRate}
          days={days}
          format={formatRate}
          hint={formula}
        />
        <KpiCard
          label="Followers gained"
          kpi={kpis.followersGained}
          days={days}
          format={formatSigned}
        />
        <KpiCard
          label="Posts published"
          kpi={kpis.postsPublished}
          days={days}
          format={formatCount}
        />
      </dl>
    </section>
  );
}
