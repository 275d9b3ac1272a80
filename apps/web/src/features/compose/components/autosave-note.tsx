import { History } from 'lucide-react';
import { useRelativeTime } from '@/lib/relative-time';
import type { AutosaveStatus } from '../hooks/use-autosave';

interface AutosaveNoteProps {
  status: AutosaveStatus;
  /** When the draft now in the form was saved, if the form was restored from one. */
  restoredAt: string | null;
  onDiscard: () => void;
  disabled?: boolean;
}

/** docs/product.md#composer-autosave: what the member's unsent work is kept as, said quietly. */
export function AutosaveNote({ status, restoredAt, onDiscard, disabled }: AutosaveNoteProps) {
  const restoredAgo = useRelativeTime(restoredAt ?? '');
  const statusText =
    status.kind === 'saving'
      ? 'Saving draft…'
      : status.kind === 'saved'
        ? 'Draft saved. It comes back here on any device until you send it.'
        : status.kind === 'failed'
          ? 'The draft could not be saved just now; it is tried again as you type.'
          : null;
  return (
    <div className="flex flex-col gap-2">
      {restoredAt && (
        <div className="flex flex-wrap items-center gap-3 rounded-xl border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-950">
          <History className="size-4 shrink-0" aria-hidden="true" />
          <p className="flex-1">
            Restored your unsent draft (saved {restoredAgo.toLowerCase()}). Files chosen in the
            browser are not kept in drafts.
          </p>
          <button
            type="button"
            onClick={onDiscard}
            disabled={disabled}
            className="rounded-md px-2 py-1 font-semibold text-indigo-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            Discard draft
          </button>
        </div>
      )}
      <p
        aria-live="polite"
        className={status.kind === 'failed' ? 'text-xs text-amber-800' : 'text-xs text-slate-500'}
      >
        {statusText}
      </p>
    </div>
  );
}
