import { useState } from 'react';
import type { AnalyticsBestTimes } from '@herald/contract';
import { cn } from '@/lib/cn';
import { PHONE_QUERY, useMediaQuery } from '@/lib/use-media-query';
import { ChartFrame } from './chart-frame';
import { formatRate, NO_VALUE } from './format';

type Cell = AnalyticsBestTimes['cells'][number];
type Metric = 'engagementRate' | 'interactionsPerPost';

export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
];
const HOURS = Array.from({ length: 24 }, (_, h) => h);

/**
 * ColorBrewer "Blues": one hue getting darker, so higher reads as darker with every colour-vision
 * deficiency and in greyscale. The palest step is left out: it was hard to tell from a blank cell.
 */
export const SEQUENTIAL = ['#c6dbef', '#9ecae1', '#6baed6', '#3182bd', '#08519c'];
/** A cell with posts that gave no figure for the metric (not a 0). */
const NO_FIGURE = '#e2e8f0';

const METRICS: Array<{ id: Metric; label: string }> = [
  { id: 'engagementRate', label: 'Engagement rate' },
  { id: 'interactionsPerPost', label: 'Interactions per post' },
];

const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;
const slotLabel = (c: Pick<Cell, 'weekday' | 'hour'>) =>
  `${WEEKDAYS[c.weekday]} ${hourLabel(c.hour)}–${hourLabel((c.hour + 1) % 24)}`;
const postsLabel = (n: number) => `${n} ${n === 1 ? 'post' : 'posts'}`;

const formatPerPost = (value: number | null) =>
  value === null ? NO_VALUE : value < 10 ? value.toFixed(1) : String(Math.round(value));
const formatMetric = (metric: Metric, value: number | null) =>
  metric === 'engagementRate' ? formatRate(value) : formatPerPost(value);

/** The colour step of `value` between the map's lowest and highest figure. */
function stepOf(value: number, min: number, max: number) {
  if (max === min) return Math.floor(SEQUENTIAL.length / 2);
  return Math.min(
    SEQUENTIAL.length - 1,
    Math.floor(((value - min) / (max - min)) * SEQUENTIAL.length),
  );
}

function summaryOf(data: AnalyticsBestTimes, metric: Metric, from: string, to: string) {
  const zone = `in ${data.timezone}`;
  if (data.posts === 0)
    return `No post published from ${from} to ${to} has been read yet, so there is no best time to show.`;
  const best = data.cells
    .filter((c) => c[metric] !== null)
    .sort((a, b) => b[metric]! - a[metric]! || b.posts - a.posts)[0];
  const base = `Based on ${postsLabel(data.posts)} published from ${from} to ${to}, by the hour they went out ${zone}.`;
  if (!best) return `${base} None of them gave this figure yet.`;
  const label = METRICS.find((m) => m.id === metric)!.label.toLowerCase();
  return `${base} Best: ${slotLabel(best)} (${formatMetric(metric, best[metric])} ${label}, ${postsLabel(best.posts)}).`;
}

/**
 * Best time to post: weekday × hour of publishing in the viewer's time zone, coloured by the
 * chosen figure. An hour without posts stays blank (unknown, not 0). On a phone the map turns
 * on its side (hours down, weekdays across) so each cell stays large enough to see.
 */
export function BestTimesHeatmap({
  data,
  from,
  to,
}: {
  data: AnalyticsBestTimes;
  from: string;
  to: string;
}) {
  const [metric, setMetric] = useState<Metric>('engagementRate');
  const isPhone = useMediaQuery(PHONE_QUERY);
  const byKey = new Map(data.cells.map((c) => [`${c.weekday}:${c.hour}`, c]));
  const values = data.cells.map((c) => c[metric]).filter((v): v is number => v !== null);
  const min = Math.min(...values);
  const max = Math.max(...values);

  const cellView = (weekday: number, hour: number) => {
    const cell = byKey.get(`${weekday}:${hour}`);
    const value = cell ? cell[metric] : null;
    return (
      <div
        key={`${weekday}:${hour}`}
        title={
          cell
            ? `${slotLabel(cell)}: ${formatMetric(metric, value)}, ${postsLabel(cell.posts)}`
            : `${slotLabel({ weekday, hour })}: no posts`
        }
        className={cn('h-4 rounded-[3px] sm:h-6', !cell && 'border border-slate-100')}
        style={
          cell
            ? { background: value === null ? NO_FIGURE : SEQUENTIAL[stepOf(value, min, max)] }
            : undefined
        }
      />
    );
  };

  const grid = isPhone ? (
    <div className="grid gap-0.5" style={{ gridTemplateColumns: '3rem repeat(7, minmax(0, 1fr))' }}>
      <span />
      {WEEKDAYS.map((d) => (
        <span key={d} className="text-center text-[11px] text-slate-500">
          {d.slice(0, 3)}
        </span>
      ))}
      {HOURS.map((h) => [
        <span key={`h${h}`} className="text-[11px] leading-4 text-slate-500 tabular-nums">
          {hourLabel(h)}
        </span>,
        ...WEEKDAYS.map((_, d) => cellView(d, h)),
      ])}
    </div>
  ) : (
    <div
      className="grid gap-0.5"
      style={{ gridTemplateColumns: '2.5rem repeat(24, minmax(0, 1fr))' }}
    >
      <span />
      {HOURS.map((h) => (
        <span key={h} className="text-center text-[11px] text-slate-500 tabular-nums">
          {h % 3 === 0 ? String(h).padStart(2, '0') : ''}
        </span>
      ))}
      {WEEKDAYS.map((d, weekday) => [
        <span key={d} className="text-xs leading-6 text-slate-500">
          {d.slice(0, 3)}
        </span>,
        ...HOURS.map((h) => cellView(weekday, h)),
      ])}
    </div>
  );

  const legend = (
    <div className="flex flex-col gap-2">
      <div role="group" aria-label="Colour by" className="flex flex-wrap gap-2">
        {METRICS.map((m) => (
          <button
            key={m.id}
            type="button"
            aria-pressed={metric === m.id}
            onClick={() => setMetric(m.id)}
            className={cn(
              'rounded-full border px-3 py-1 text-xs font-medium',
              metric === m.id
                ? 'border-indigo-600 bg-indigo-50 text-indigo-800'
                : 'border-slate-300 text-slate-700 hover:bg-slate-50',
            )}
          >
            {m.label}
          </button>
        ))}
      </div>
      {values.length > 0 && (
        <div
          aria-hidden="true"
          className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600"
        >
          <span className="flex items-center gap-1">
            {formatMetric(metric, min)}
            {SEQUENTIAL.map((c) => (
              <span key={c} className="inline-block size-3 rounded-sm" style={{ background: c }} />
            ))}
            {formatMetric(metric, max)}
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block size-3 rounded-sm" style={{ background: NO_FIGURE }} />
            posts without this figure
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block size-3 rounded-sm border border-slate-200" />
            no posts
          </span>
        </div>
      )}
    </div>
  );

  const table = (
    <table>
      <caption>Best time to post</caption>
      <thead>
        <tr>
          <th scope="col">Day and hour</th>
          <th scope="col">Posts</th>
          <th scope="col">Engagement rate</th>
          <th scope="col">Interactions per post</th>
        </tr>
      </thead>
      <tbody>
        {data.cells.map((c) => (
          <tr key={`${c.weekday}:${c.hour}`}>
            <th scope="row">{slotLabel(c)}</th>
            <td>{c.posts}</td>
            <td>{formatRate(c.engagementRate)}</td>
            <td>{formatPerPost(c.interactionsPerPost)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );

  return (
    <ChartFrame
      title="Best time to post"
      summary={summaryOf(data, metric, from, to)}
      legend={legend}
      table={table}
    >
      {grid}
    </ChartFrame>
  );
}
