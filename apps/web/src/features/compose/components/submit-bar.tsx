import { Save, Send } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

interface SubmitBarProps {
  canSubmit: boolean;
  isSubmitting: boolean;
  /** Share of the upload sent, 0 to 1. */
  progress: number;
  /** Why Create Post is unavailable, when it is. */
  blockedReason: string | null;
  /** What the button does, in its words (`mainButtonLabel`). */
  label: string;
  /** Editing a stored post: saving, rather than creating. */
  isEdit?: boolean;
  /** Editing: where Cancel goes back to (the post's details). */
  cancelTo?: string;
}

/** How the main button is pressed from the keyboard, as the platform says it. */
const SHORTCUT =
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
    ? '⌘ Enter'
    : 'Ctrl+Enter';

/** The main button with the upload's real progress (docs/product.md#create-post). */
export function SubmitBar({
  canSubmit,
  isSubmitting,
  progress,
  blockedReason,
  label,
  isEdit = false,
  cancelTo,
}: SubmitBarProps) {
  const percent = Math.round(progress * 100);
  return (
    <div className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      {isSubmitting && (
        <div>
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div
              className="h-full rounded-full bg-indigo-600 transition-[width]"
              style={{ width: `${percent}%` }}
            />
          </div>
          <p className="mt-1 text-xs text-slate-600">
            {percent < 100
              ? `Uploading… ${percent}%`
              : `Upload complete. ${isEdit ? 'Saving' : 'Creating'} the post…`}
          </p>
          {/* Screen readers hear quarters, not every progress event. */}
          <p aria-live="polite" className="sr-only">
            {percent < 100 ? `Uploading, ${Math.floor(percent / 25) * 25}%` : 'Upload complete'}
          </p>
        </div>
      )}
      <div className="flex flex-wrap items-center justify-end gap-3">
        {blockedReason && !isSubmitting && (
          <p className="mr-auto text-sm text-slate-600">{blockedReason}</p>
        )}
        {cancelTo && (
          <Link
            to={cancelTo}
            className="inline-flex h-11 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            Cancel
          </Link>
        )}
        <Button
          type="submit"
          size="lg"
          disabled={!canSubmit || isSubmitting}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          title={`${label} (${SHORTCUT})`}
        >
          {isSubmitting ? (
            <Spinner className="size-4 text-white" />
          ) : isEdit ? (
            <Save className="size-4" aria-hidden="true" />
          ) : (
            <Send className="size-4" aria-hidden="true" />
          )}
          {label}
        </Button>
      </div>
    </div>
  );
}
