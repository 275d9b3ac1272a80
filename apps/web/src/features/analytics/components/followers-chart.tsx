import type { AnalyticsOverview } from '@herald/contract';
import { ChartFrame } from './chart-frame';
import { formatCount, formatDay, formatSigned, PALETTE } from './format';

type Account = AnalyticsOverview['followers'][number];

const WIDTH = 240;
const HEIGHT = 44;
const DAY_MS = 86_400_000;

/** One account's followers over the range on its own scale (accounts differ by orders of size). */
function Sparkline({
  account,
  from,
  to,
  colour,
}: {
  account: Account;
  from: string;
  to: string;
  colour: string;
}) {
  const start = Date.parse(`${from}T00:00:00Z`);
  const span = Math.max(Date.parse(`${to}T00:00:00Z`) - start, DAY_MS);
  const values = account.points.map((p) => p.followers);
  const min = Math.min(...values);
  const range = Math.max(Math.max(...values) - min, 1);
  const xy = account.points.map((p) => [
    2 + ((Date.parse(`${p.day}T00:00:00Z`) - start) / span) * (WIDTH - 4),
    HEIGHT - 4 - ((p.followers - min) / range) * (HEIGHT - 8),
  ]);
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      className="h-11 w-full"
      role="presentation"
    >
      <polyline
        points={xy.map(([x, y]) => `${x},${y}`).join(' ')}
        fill="none"
        stroke={colour}
        strokeWidth={2}
        strokeLinejoin="round"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}

const gained = (a: Account) => a.gained;

/** Followers per account over the range, one row each. */
export function FollowersChart({
  accounts,
  from,
  to,
}: {
  accounts: Account[];
  from: string;
  to: string;
}) {
  const summary =
    'No follower counts were collected in this range yet; accounts are read once a day.';
  return (
    <ChartFrame
      title="Followers per account"
      summary={
        accounts.length
          ? `${accounts.length} ${accounts.length === 1 ? 'account' : 'accounts'}, read once a day: the latest count and the change over the range beside each line.`
          : summary
      }
      table={
        <table>
          <caption>Followers per account</caption>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">First day</th>
              <th scope="col">Last day</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.integrationId}>
                <th scope="row">{`${a.name} (${a.platform})`}</th>
                <td>{`${formatCount(a.points[0]!.followers)} on ${formatDay(a.points[0]!.day, true)}`}</td>
                <td>{`${formatCount(a.points.at(-1)!.followers)} on ${formatDay(a.points.at(-1)!.day, true)}`}</td>
                <td>{formatSigned(gained(a))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      <ul className="flex flex-col divide-y divide-slate-100">
        {accounts.map((a, i) => {
          const colour = PALETTE[i % PALETTE.length]!;
          const change = gained(a);
          return (
            <li
              key={a.integrationId}
              className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 py-2 sm:grid-cols-[12rem_1fr_auto]"
            >
              <span className="flex min-w-0 items-center gap-2 text-sm">
                <span className="size-3 shrink-0 rounded-full" style={{ background: colour }} />
                <span className="truncate font-medium text-slate-900">{a.name}</span>
                <span className="text-xs text-slate-500">{a.platform}</span>
              </span>
              <span className="order-last col-span-2 sm:order-none sm:col-span-1">
                <Sparkline account={a} from={from} to={to} colour={colour} />
              </span>
              <span className="text-right text-sm">
                <span className="font-semibold text-slate-900">
                  {formatCount(a.points.at(-1)!.followers)}
                </span>{' '}
                <span
                  className={
                    change !== null && change > 0
                      ? 'text-emerald-700'
                      : change !== null && change < 0
                        ? 'text-red-700'
                        : 'text-slate-500'
                  }
                >
                  {formatSigned(change)}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </ChartFrame>
  );
}
