import type { AnalyticsOverview } from '@herald/contract';
import { formatCount, formatRate, PALETTE } from './format';

type Network = AnalyticsOverview['networks'][number];

/** Posts, views, reach, interactions and engagement per network, with views drawn as bars. */
export function NetworkComparison({ networks }: { networks: Network[] }) {
  const max = Math.max(1, ...networks.map((n) => n.views ?? 0));
  return (
    <section
      aria-labelledby="analytics-networks"
      className="flex min-w-0 flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="analytics-networks" className="text-lg font-semibold text-slate-900">
        By network
      </h2>
      {networks.length === 0 ? (
        <p className="text-sm text-slate-600">No posts were published in this range.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Network
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Posts
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Views
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Reach
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Interactions
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Engagement
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {networks.map((n) => (
                <tr key={n.platformId}>
                  <th scope="row" className="py-2 pr-3 font-medium text-slate-900">
                    {n.platform}
                  </th>
                  <td className="py-2 pr-3 text-right tabular-nums">{n.posts}</td>
                  <td className="py-2 pr-3">
                    <span className="flex items-center gap-2">
                      <span
                        aria-hidden="true"
                        className="h-2.5 rounded-sm"
                        style={{
                          width: `${Math.max(2, ((n.views ?? 0) / max) * 96)}px`,
                          background: PALETTE[0],
                        }}
                      />
                      <span className="tabular-nums">{formatCount(n.views)}</span>
                    </span>
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{formatCount(n.reach)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">
                    {formatCount(n.interactions)}
                  </td>
                  <td className="py-2 text-right tabular-nums">{formatRate(n.engagementRate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
