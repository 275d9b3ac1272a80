import { AlertTriangle } from 'lucide-react';
import type { AnalyticsOverview } from '@herald/contract';

type Account = AnalyticsOverview['accounts'][number];

/** Accounts whose metrics could not be read lately, with the network's reason. */
export function StaleNotices({ accounts }: { accounts: Account[] }) {
  const stale = accounts.filter((a) => a.isStale);
  if (stale.length === 0) return null;
  return (
    <section
      aria-label="Accounts with outdated metrics"
      className="rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <h2 className="flex items-center gap-2 font-semibold">
        <AlertTriangle className="size-4" aria-hidden="true" />
        {stale.length === 1
          ? 'One account’s figures are out of date'
          : `${stale.length} accounts’ figures are out of date`}
      </h2>
      <ul className="mt-2 flex flex-col gap-1">
        {stale.map((a) => (
          <li key={a.integrationId}>
            <span className="font-medium">{`${a.name} (${a.platform})`}</span>
            {`: ${a.staleReason ?? ''}`}
            {a.lastSuccessAt &&
              ` Last read ${new Date(a.lastSuccessAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}.`}
          </li>
        ))}
      </ul>
    </section>
  );
}
