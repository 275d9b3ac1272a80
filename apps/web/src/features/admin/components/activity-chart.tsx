import type { ActivityDay } from '@herald/contract';
import dayjs from 'dayjs';

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 28, left: 32 };

const series = [
  { key: 'signUps', label: 'Sign-ups', fill: 'fill-indigo-500', swatch: 'bg-indigo-500' },
  { key: 'posts', label: 'Posts', fill: 'fill-emerald-500', swatch: 'bg-emerald-500' },
] as const;

const dayLabel = (date: string) => dayjs(date).format('MMM D');

/** A round top for the y axis: 1, 2, 5, 10, 20, 50… at least the largest value. */
export function niceMax(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
}

/**
 * Sign-ups and posts per day as paired bars. The picture is for the eye; the same numbers are
 * in a table below it for screen readers and for anyone who wants the exact figures.
 */
export function ActivityChart({ days }: { days: ActivityDay[] }) {
  const totals = {
    signUps: days.reduce((sum, d) => sum + d.signUps, 0),
    posts: days.reduce((sum, d) => sum + d.posts, 0),
  };
  const top = niceMax(Math.max(0, ...days.flatMap((d) => [d.signUps, d.posts])));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(1, (slot - 2) / 2);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const summary = `Sign-ups and posts per day from ${days[0] ? dayLabel(days[0].date) : ''} to ${
    days.at(-1) ? dayLabel(days.at(-1)!.date) : ''
  }: ${totals.signUps} sign-ups and ${totals.posts} posts in all.`;

  return (
    <figure className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-4 text-sm text-slate-700">
        {series.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-2">
            <span aria-hidden="true" className={`size-3 rounded-sm ${s.swatch}`} />
            {s.label}: <strong className="text-slate-900">{totals[s.key]}</strong>
          </span>
        ))}
      </div>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={summary}
        className="h-auto w-full"
      >
        {(Number.isInteger(top / 2) ? [0, top / 2, top] : [0, top]).map((tick) => (
          <g key={tick}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(tick)}
              y2={y(tick)}
              className="stroke-slate-200"
              strokeWidth={1}
            />
            <text
              x={PAD.left - 6}
              y={y(tick) + 4}
              textAnchor="end"
              className="fill-slate-500 text-[10px]"
            >
              {tick}
            </text>
          </g>
        ))}
        {days.map((day, i) => {
          const x = PAD.left + i * slot + 1;
          return (
            <g key={day.date}>
              <title>{`${dayLabel(day.date)}: ${day.signUps} sign-ups, ${day.posts} posts`}</title>
              {series.map((s, j) => (
                <rect
                  key={s.key}
                  x={x + j * barWidth}
                  y={y(day[s.key])}
                  width={barWidth}
                  height={Math.max(0, PAD.top + plotHeight - y(day[s.key]))}
                  className={s.fill}
                />
              ))}
              {/* A label a week, counted back from today so today always has one. */}
              {(days.length - 1 - i) % 7 === 0 ? (
                <text
                  x={x + barWidth}
                  y={HEIGHT - 8}
                  textAnchor="middle"
                  className="fill-slate-500 text-[10px]"
                >
                  {dayLabel(day.date)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="text-xs text-slate-500">{summary}</figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer text-indigo-700">Show the numbers</summary>
        <table className="mt-2 w-full max-w-md text-left">
          <caption className="sr-only">Sign-ups and posts per day</caption>
          <thead className="text-xs text-slate-600">
            <tr>
              <th scope="col" className="py-1">
                Day
              </th>
              <th scope="col" className="py-1">
                Sign-ups
              </th>
              <th scope="col" className="py-1">
                Posts
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <th scope="row" className="py-0.5 font-normal text-slate-700">
                  {dayLabel(day.date)}
                </th>
                <td className="py-0.5">{day.signUps}</td>
                <td className="py-0.5">{day.posts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
