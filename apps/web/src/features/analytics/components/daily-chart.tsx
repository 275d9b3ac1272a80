import type { AnalyticsOverview } from '@herald/contract';
import { ChartFrame } from './chart-frame';
import { formatCompact, formatCount, formatDay, PALETTE } from './format';

type Day = AnalyticsOverview['daily'][number];
type Metric = 'views' | 'interactions';

const WIDTH = 600;
const HEIGHT = 100;

/**
 * One row of bars: a day per bar, none where no reading was taken that day. The bars stretch to
 * the card's width; the labels are HTML so they keep their size on a phone.
 */
function Bars({
  days,
  metric,
  colour,
  label,
}: {
  days: Day[];
  metric: Metric;
  colour: string;
  label: string;
}) {
  const max = Math.max(1, ...days.map((d) => d[metric] ?? 0));
  const slot = WIDTH / Math.max(days.length, 1);
  const bar = Math.max(1, slot * 0.7);
  const middle = days[Math.floor((days.length - 1) / 2)];
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-baseline justify-between text-xs text-slate-600">
        <span className="font-medium">{label}</span>
        <span>{`max ${formatCompact(max)}`}</span>
      </div>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-24 w-full border-b border-slate-300"
        role="presentation"
      >
        <line x1={0} x2={WIDTH} y1={0.5} y2={0.5} stroke="#e2e8f0" strokeDasharray="4 4" />
        {days.map((d, i) => {
          const value = d[metric];
          if (value === null || value <= 0) return null;
          const h = (HEIGHT * value) / max;
          return (
            <rect
              key={d.day}
              x={i * slot + (slot - bar) / 2}
              y={HEIGHT - h}
              width={bar}
              height={h}
              fill={colour}
            />
          );
        })}
      </svg>
      {days.length > 0 && (
        <div className="flex justify-between text-xs text-slate-500">
          <span>{formatDay(days[0]!.day)}</span>
          {days.length > 2 && middle && <span>{formatDay(middle.day)}</span>}
          <span>{formatDay(days.at(-1)!.day)}</span>
        </div>
      )}
    </div>
  );
}

const total = (days: Day[], metric: Metric) =>
  days.reduce<number | null>((sum, d) => (d[metric] === null ? sum : (sum ?? 0) + d[metric]), null);

function peak(days: Day[], metric: Metric) {
  return days.reduce<Day | null>(
    (best, d) =>
      d[metric] !== null && (best === null || d[metric] > (best[metric] ?? 0)) ? d : best,
    null,
  );
}

/** The summary sentence a screen reader hears in place of the bars. */
export function dailySummary(days: Day[]): string {
  const views = total(days, 'views');
  const interactions = total(days, 'interactions');
  if (views === null && interactions === null) return 'No readings were taken in this range yet.';
  const top = peak(days, 'views');
  return [
    `${formatCount(views)} views and ${formatCount(interactions)} interactions gained over ${days.length} days`,
    top ? `; the most views on ${formatDay(top.day, true)} (${formatCount(top.views)}).` : '.',
  ].join('');
}

/** Views and interactions gained per day, drawn as two rows of bars on one time axis. */
export function DailyChart({ days }: { days: Day[] }) {
  return (
    <ChartFrame
      title="Views and interactions per day"
      summary={dailySummary(days)}
      legend={
        <ul className="flex gap-4 text-xs text-slate-600">
          <li className="flex items-center gap-1.5">
            <span className="size-3 rounded-sm" style={{ background: PALETTE[0] }} /> Views
          </li>
          <li className="flex items-center gap-1.5">
            <span className="size-3 rounded-sm" style={{ background: PALETTE[1] }} /> Interactions
          </li>
        </ul>
      }
      table={
        <table>
          <caption>Views and interactions per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Views</th>
              <th scope="col">Interactions</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{formatDay(d.day, true)}</th>
                <td>{formatCount(d.views)}</td>
                <td>{formatCount(d.interactions)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      <div className="flex flex-col gap-4">
        <Bars days={days} metric="views" colour={PALETTE[0]!} label="Views" />
        <Bars days={days} metric="interactions" colour={PALETTE[1]!} label="Interactions" />
      </div>
    </ChartFrame>
  );
}
