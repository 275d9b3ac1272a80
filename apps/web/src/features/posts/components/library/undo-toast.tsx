import type { ReactNode } from 'react';
import { toast } from '@/lib/toast';
import { UNDO_TOAST_MS } from '../calendar/use-reschedule';

/**
 * A success toast that says what changed and, when it can be taken back, offers Undo, as the
 * calendar's moves do (and for as long). Undo closes the toast before it runs.
 */
export function showUndoToast(message: ReactNode, onUndo: (() => void) | null, id: string) {
  toast.success(
    (t) => (
      <span className="flex items-center gap-3">
        <span>{message}</span>
        {onUndo && (
          <button
            type="button"
            onClick={() => {
              toast.dismiss(t.id);
              onUndo();
            }}
            className="rounded-md px-2 py-1 font-semibold text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            Undo
          </button>
        )}
      </span>
    ),
    { id, duration: UNDO_TOAST_MS },
  );
}
