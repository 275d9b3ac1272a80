import type { InboxAccount } from '@herald/contract';
import { Info, TriangleAlert, X } from 'lucide-react';
import { useState } from 'react';
import { NetworkMark } from '@/components/ui/network-mark';
import { readStorage, storageKeys, writeStorage } from '@/lib/storage';

interface Notice {
  key: string;
  account: string;
  platform: string;
  text: string;
  problem: boolean;
}

/** The sentences each account's summary carries: a sync problem, what is missing, what history came. */
function noticesOf(accounts: InboxAccount[]): Notice[] {
  return accounts.flatMap((account) => {
    const name = account.name?.trim() || account.platform;
    const parts: Array<[string | null, boolean]> = [
      [account.syncError, true],
      [account.limitation, false],
      [account.historyNote, false],
    ];
    return parts.flatMap(([text, problem]) =>
      text
        ? [
            {
              key: `${account.integrationId}:${text}`,
              account: name,
              platform: account.platform,
              text,
              problem,
            },
          ]
        : [],
    );
  });
}

function readDismissed(): string[] {
  try {
    const value: unknown = JSON.parse(readStorage(storageKeys.inboxNotices) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Once per account, plainly: what the network does not give (no DM API), what history was
 * imported, and a sync that failed. Each can be dismissed; a new sentence shows again.
 */
export function AccountNotices({ accounts }: { accounts: InboxAccount[] }) {
  const [dismissed, setDismissed] = useState(readDismissed);
  const shown = noticesOf(accounts).filter((n) => !dismissed.includes(n.key));
  if (shown.length === 0) return null;

  const dismiss = (key: string) => {
    const next = [...dismissed, key];
    setDismissed(next);
    writeStorage(storageKeys.inboxNotices, JSON.stringify(next.slice(-200)));
  };

  return (
    <section aria-label="About your accounts" className="flex flex-col gap-2">
      <ul className="flex flex-col gap-1.5">
        {shown.map((notice) => (
          <li
            key={notice.key}
            className={
              notice.problem
                ? 'flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-950'
                : 'flex items-start gap-2 rounded-lg border border-slate-200 bg-white px-3 py-1.5 text-sm text-slate-700'
            }
          >
            {notice.problem ? (
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            ) : (
              <Info className="mt-0.5 size-4 shrink-0 text-slate-600" aria-hidden="true" />
            )}
            <NetworkMark name={notice.platform} size="xs" />
            <p className="min-w-0 flex-1 break-words">
              <span className="font-semibold">{notice.account}: </span>
              {notice.text}
            </p>
            <button
              type="button"
              onClick={() => dismiss(notice.key)}
              aria-label={`Dismiss the note about ${notice.account}`}
              className="-m-1 rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
