import type { Integration } from '@herald/contract';
import { useId } from 'react';

const selectClass =
  'block w-full rounded-lg border border-slate-300 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200';

/** How an account is named in a list: its name, its handle, its network. */
export function accountLabel(account: Integration): string {
  const name = account.metadata.name?.trim();
  const handle = account.metadata.username?.trim();
  const who =
    name && handle
      ? `${name} (@${handle})`
      : name || (handle ? `@${handle}` : account.platformAccountId);
  return `${who} · ${account.platform.name}`;
}

/**
 * Network and account filters, from the organization's connected accounts. Choosing a network
 * narrows the accounts offered; an account of another network is let go.
 */
export function LibraryFilters({
  accounts,
  network,
  account,
  onChange,
}: {
  accounts: readonly Integration[];
  network: string;
  account: string;
  onChange: (change: { network: string; account: string }) => void;
}) {
  const networks = [
    ...new Map(accounts.map((a) => [a.platform.id, a.platform.name] as const)).entries(),
  ].sort((a, b) => a[1].localeCompare(b[1]));
  const networkId = useId();
  const accountId = useId();
  const offered = accounts.filter((a) => !network || a.platform.id === network);
  return (
    <div className="grid grid-cols-2 gap-3 sm:flex sm:items-end">
      <div className="min-w-0 sm:w-44">
        <label htmlFor={networkId} className="block text-xs font-medium text-slate-600">
          Network
        </label>
        <select
          id={networkId}
          className={`${selectClass} mt-1`}
          value={network}
          onChange={(event) => {
            const next = event.target.value;
            const kept = accounts.find((a) => a.id === account);
            onChange({
              network: next,
              account: kept && (!next || kept.platform.id === next) ? account : '',
            });
          }}
        >
          <option value="">All networks</option>
          {networks.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="min-w-0 sm:w-56">
        <label htmlFor={accountId} className="block text-xs font-medium text-slate-600">
          Account
        </label>
        <select
          id={accountId}
          className={`${selectClass} mt-1`}
          value={account}
          onChange={(event) => onChange({ network, account: event.target.value })}
        >
          <option value="">All accounts</option>
          {offered.map((a) => (
            <option key={a.id} value={a.id}>
              {accountLabel(a)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
