import type { PostMetrics, PostMetricValues } from '@herald/contract';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Sparkline } from '@/components/ui/sparkline';
import { useTimeZone } from '@/lib/use-time-zone';
import { usePostMetrics } from '../../api/metrics';
import { formatPostDate } from '../post-dates';

type Target = PostMetrics['targets'][number];

export const NO_READING_YET = 'First figures about 10 minutes after publishing.';
export const METRICS_FAILED = 'The figures could not be loaded.';

const NO_VALUE = '—';
const numberFormat = new Intl.NumberFormat('en-US');
const count = (value: number | null) =>
  value === null ? NO_VALUE : numberFormat.format(Math.round(value));
const rate = (value: number | null) =>
  value === null ? NO_VALUE : `${(value * 100).toFixed(value < 0.1 ? 2 : 1)}%`;

const FIGURES: Array<[keyof PostMetricValues, string]> = [
  ['views', 'Views'],
  ['reach', 'Reach'],
  ['likes', 'Likes'],
  ['comments', 'Comments'],
  ['shares', 'Shares'],
  ['saves', 'Saves'],
  ['clicks', 'Clicks'],
  ['interactions', 'Interactions'],
  ['engagementRate', 'Engagement'],
];

const accountOf = (target: Target) => `${target.accountName ?? 'Disconnected account'}`;

/** In words what the sparkline draws, for screen readers. */
export function curveSummary(target: Target): string {
  const views = target.series.map((point) => point.views).filter((v): v is number => v !== null);
  const readings = `${target.series.length} reading${target.series.length === 1 ? '' : 's'}`;
  if (views.length === 0) return `${readings}; the network gives no views.`;
  if (views.length === 1) return `${readings}: ${count(views[0]!)} views.`;
  return `Views over ${readings}: from ${count(views[0]!)} to ${count(views.at(-1)!)}.`;
}

function TargetRow({ target, zone }: { target: Target; zone: string }) {
  const name = `${accountOf(target)} on ${target.platform}`;
  return (
    <li className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h3 className="truncate font-medium text-slate-900">{accountOf(target)}</h3>
          <p className="text-sm text-slate-600">{target.platform}</p>
        </div>
        {target.series.length > 0 && (
          <Sparkline
            points={target.series.map((point) => ({
              x: Date.parse(point.takenAt),
              y: point.views,
            }))}
          />
        )}
      </div>
      {target.takenAt === null ? (
        <p className="text-sm text-slate-600">{NO_READING_YET}</p>
      ) : (
        <>
          <dl className="grid grid-cols-3 gap-x-4 gap-y-2 sm:grid-cols-5">
            {FIGURES.map(([key, label]) => (
              <div key={key} className="min-w-0">
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className="font-semibold text-slate-900 tabular-nums">
                  {target.latest[key] === null ? (
                    <>
                      <span aria-hidden="true">{NO_VALUE}</span>
                      <span className="sr-only">Not given by {target.platform}</span>
                    </>
                  ) : key === 'engagementRate' ? (
                    rate(target.latest.engagementRate)
                  ) : (
                    count(target.latest[key])
                  )}
                </dd>
              </div>
            ))}
          </dl>
          <p className="text-xs text-slate-600">
            Read {formatPostDate(target.takenAt, zone)}
            <span className="sr-only">. {curveSummary(target)}</span>
          </p>
          <table className="sr-only">
            <caption>Readings of {name}</caption>
            <thead>
              <tr>
                <th scope="col">Read at</th>
                <th scope="col">Views</th>
                <th scope="col">Interactions</th>
              </tr>
            </thead>
            <tbody>
              {target.series.map((point) => (
                <tr key={point.takenAt}>
                  <th scope="row">{formatPostDate(point.takenAt, zone)}</th>
                  <td>{count(point.views)}</td>
                  <td>{count(point.interactions)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </li>
  );
}

/**
 * docs/analytics.md#post-metrics: one row per network the post went out on, with its latest
 * figures and a small curve of its views; a figure the network does not give is a dash.
 */
export function PerformanceCard({ orgId, postId }: { orgId: string; postId: string }) {
  const headingId = useId();
  const zone = useTimeZone();
  const metrics = usePostMetrics(orgId, postId, Boolean(orgId));
  const targets = metrics.data?.targets ?? [];
  return (
    <section
      aria-labelledby={headingId}
      aria-busy={metrics.isPending}
      className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div>
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Performance
        </h2>
        {metrics.data && (
          <p className="text-xs text-slate-600">
            The curve shows views since publishing. {metrics.data.engagementFormula}
          </p>
        )}
      </div>
      {metrics.isPending && <p className="text-sm text-slate-600">Loading the figures…</p>}
      {metrics.isError && (
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
          <p role="alert">{METRICS_FAILED}</p>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void metrics.refetch()}
            disabled={metrics.isFetching}
          >
            Try again
          </Button>
        </div>
      )}
      {metrics.data && targets.length === 0 && (
        <p className="text-sm text-slate-600">{NO_READING_YET}</p>
      )}
      {targets.length > 0 && (
        <ul className="divide-y divide-slate-200">
          {targets.map((target) => (
            <TargetRow key={target.targetId} target={target} zone={zone} />
          ))}
        </ul>
      )}
    </section>
  );
}
