import type { InboxAccount } from '@herald/contract';
import { Info, TriangleAlert, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { NetworkMark } from '@/components/ui/network-mark';
import { cn } from '@/lib/cn';
import { readStorage, storageKeys, writeStorage } from '@/lib/storage';

/** Everything the accounts say, as one string: the summary shows again when any of it changes. */
const signatureOf = (accounts: InboxAccount[]) =>
  accounts
    .map((a) => [a.integrationId, a.limitation, a.historyNote, a.syncError].join('\u0001'))
    .sort()
    .join('\u0002');

/** The dismissed summaries, one signature per member and organization. */
function readDismissed(): Record<string, string> {
  try {
    const value: unknown = JSON.parse(readStorage(storageKeys.inboxNotices) ?? '{}');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** At most this many member/organization pairs are remembered on one browser. */
const REMEMBERED = 50;

const brings = (a: InboxAccount) =>
  [
    a.dm && 'direct messages',
    a.comments && (a.reviews ? 'reviews' : 'comments'),
    a.mentions && 'mentions',
  ].filter((x): x is string => typeof x === 'string');

const listed = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/**
 * An account brings in the conversations people answer: its direct messages and comments, read
 * without a problem. A network of reviews (Google Business Profile) has no direct messages to
 * miss: its reviews are all there is. (Mentions, likes or older history missing are said in
 * Details.)
 */
const complete = (a: InboxAccount) => (a.reviews ? a.comments : a.dm && a.comments) && !a.syncError;

/**
 * One line about the connected accounts: how many bring in messages and comments, how many have a sync
 * problem, and on demand (Details) what each account brings in and what it cannot. Dismissed, it
 * stays away for this member in this organization until something it says changes.
 */
export function AccountNotices({
  accounts,
  memberKey,
}: {
  accounts: InboxAccount[];
  /** Whose dismissal this is: the member and the organization. */
  memberKey: string;
}) {
  const [dismissed, setDismissed] = useState(readDismissed);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const signature = signatureOf(accounts);
  const noted = accounts.filter((a) => a.limitation || a.historyNote || a.syncError);
  if (noted.length === 0 || dismissed[memberKey] === signature) return null;

  const whole = accounts.filter(complete).length;
  const problems = accounts.filter((a) => a.syncError).length;
  const dismiss = () => {
    const next = Object.fromEntries(
      [...Object.entries(dismissed).filter(([k]) => k !== memberKey), [memberKey, signature]].slice(
        -REMEMBERED,
      ),
    );
    setDismissed(next);
    writeStorage(storageKeys.inboxNotices, JSON.stringify(next));
  };
  const close = () => {
    setOpen(false);
    toggleRef.current?.focus();
  };

  return (
    <div
      ref={rootRef}
      className="relative"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        close();
      }}
    >
      <section
        aria-label="About your accounts"
        className={cn(
          'flex items-center gap-2 rounded-lg border px-3 py-1.5 text-sm',
          problems
            ? 'border-amber-300 bg-amber-50 text-amber-950'
            : 'border-slate-200 bg-white text-slate-700',
        )}
      >
        {problems ? (
          <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
        ) : (
          <Info className="size-4 shrink-0 text-slate-600" aria-hidden="true" />
        )}
        <p className="min-w-0 flex-1">
          {whole === accounts.length
            ? accounts.length === 1
              ? 'The account brings in its messages and comments'
              : `All ${accounts.length} accounts bring in messages and comments`
            : `${whole} of ${accounts.length} accounts bring in messages and comments`}
          {problems > 0 && (
            <span className="font-semibold">
              {' · '}
              {problems === 1 ? '1 needs attention' : `${problems} need attention`}
            </span>
          )}
        </p>
        <button
          ref={toggleRef}
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          className="shrink-0 rounded px-1 font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          Details
        </button>
        <button
          type="button"
          onClick={dismiss}
          aria-label="Dismiss the note about your accounts"
          className="-m-1 shrink-0 rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      </section>
      {open && (
        // Over the list, not above it: however many accounts, the list keeps its height.
        <div
          id={panelId}
          role="dialog"
          aria-label="What each account brings in"
          className="absolute inset-x-0 top-full z-30 mt-1 max-h-[min(28rem,60dvh)] overflow-y-auto rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg"
        >
          <div className="mb-2 flex items-center justify-between gap-2">
            <h2 className="font-semibold text-slate-900">What each account brings in</h2>
            <button
              type="button"
              onClick={close}
              aria-label="Close the details"
              className="-m-1 rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          </div>
          <ul className="flex flex-col divide-y divide-slate-100">
            {accounts.map((account) => {
              const name = account.name?.trim() || account.platform;
              const got = brings(account);
              return (
                <li key={account.integrationId} className="flex items-start gap-2 py-2">
                  <NetworkMark name={account.platform} size="xs" />
                  <div className="min-w-0 flex-1 break-words text-slate-700">
                    <p className="font-semibold text-slate-900">{name}</p>
                    <p>
                      {got.length ? `Brings in ${listed(got)}.` : 'Brings in nothing to the inbox.'}
                    </p>
                    {account.limitation && <p>{account.limitation}</p>}
                    {account.historyNote && <p className="text-slate-600">{account.historyNote}</p>}
                    {account.syncError && (
                      <p className="flex items-start gap-1 text-amber-900">
                        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                        {account.syncError}
                      </p>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}
