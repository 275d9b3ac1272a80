import { Send } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';

/**
 * Above the approvals queue, for members who may send posts to a client: choose all, and send the
 * chosen posts in one link (docs/product.md#client-approval-links).
 */
export function SendSelectedBar({
  selected,
  total,
  onSelectAll,
  onSend,
}: {
  selected: number;
  total: number;
  onSelectAll: (all: boolean) => void;
  onSend: () => void;
}) {
  const id = useId();
  const all = total > 0 && selected === total;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-slate-200 bg-white px-4 py-3 shadow-sm">
      <label htmlFor={id} className="flex items-center gap-2 text-sm text-slate-800">
        <input
          id={id}
          type="checkbox"
          checked={all}
          ref={(box) => {
            if (box) box.indeterminate = selected > 0 && !all;
          }}
          onChange={(event) => onSelectAll(event.target.checked)}
          className="size-4 rounded border-slate-300 accent-indigo-600"
        />
        {selected > 0 ? `${selected} selected` : 'Select all'}
      </label>
      <Button variant="secondary" size="sm" onClick={onSend} disabled={selected === 0}>
        <Send className="size-4" aria-hidden="true" />
        {selected > 1 ? `Send ${selected} to client` : 'Send to client'}
      </Button>
    </div>
  );
}
