import type { AnalyticsOverview } from '@herald/contract';
import { ChartFrame } from './chart-frame';
import { formatCompact, formatCount, formatDay, PALETTE } from './format';

type Day = AnalyticsOverview['daily'][number];
type Metric = 'views' | 'interactions';

const WIDTH = 640;
const HEIGHT = 110;
const AXIS = 34;

/** One row of bars: a day per bar, none where no reading was taken that day. */
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
  const slot = (WIDTH - AXIS) / Math.max(days.length, 1);
  const bar = Math.max(1, slot * 0.7);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 18}`} className="h-auto w-full" role="presentation">
      <text x={0} y={12} className="fill-slate-600 text-[11px]">
        {label}
      </text>
      <text x={AXIS - 4} y={24} textAnchor="end" className="fill-slate-500 text-[10px]">
        {formatCompact(max)}
      </text>
      <line x1={AXIS} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} stroke="#cbd5e1" />
      <line x1={AXIS} x2={WIDTH} y1={20} y2={20} stroke="#e2e8f0" strokeDasharray="3 3" />
      {days.map((d, i) => {
        const value = d[metric];
        if (value === null || value <= 0) return null;
        const h = ((HEIGHT - 20) * value) / max;
        return (
          <rect
            key={d.day}
            x={AXIS + i * slot + (slot - bar) / 2}
            y={HEIGHT - h}
            width={bar}
            height={h}
            rx={1.5}
            fill={colour}
          />
        );
      })}
      {[0, Math.floor((days.length - 1) / 2), days.length - 1]
        .filter((i, k, all) => days[i] && all.indexOf(i) === k)
        .map((i) => (
          <text
            key={i}
            x={AXIS + i * slot + slot / 2}
            y={HEIGHT + 14}
            textAnchor={i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle'}
            className="fill-slate-500 text-[10px]"
          >
            {formatDay(days[i]!.day)}
          </text>
        ))}
    </svg>
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
      <Bars days={days} metric="views" colour={PALETTE[0]!} label="Views" />
      <Bars days={days} metric="interactions" colour={PALETTE[1]!} label="Interactions" />
    </ChartFrame>
  );
}
