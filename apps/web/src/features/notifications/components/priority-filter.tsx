import { X } from 'lucide-react';
import { cn } from '@/lib/cn';
import { PRIORITIES, type Priority } from './notification-format';

/** docs/product.md#notifications: High, Medium, Low, any combination; none chosen shows every priority. */
export function PriorityFilter({
  selected,
  onChange,
}: {
  selected: readonly Priority[];
  onChange: (next: Priority[]) => void;
}) {
  const toggle = (priority: Priority) =>
    onChange(
      selected.includes(priority)
        ? selected.filter((p) => p !== priority)
        : PRIORITIES.map((p) => p.value).filter((p) => p === priority || selected.includes(p)),
    );

  return (
    <div role="group" aria-label="Priority" className="flex flex-wrap items-center gap-2">
      <span aria-hidden="true" className="text-sm font-medium text-slate-700">
        Priority:
      </span>
      {PRIORITIES.map(({ value, label }) => {
        const isOn = selected.includes(value);
        return (
          <button
            key={value}
            type="button"
            aria-pressed={isOn}
            onClick={() => toggle(value)}
            className={cn(
              'rounded-full border px-3 py-1 text-xs font-semibold transition-colors',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
              isOn
                ? 'border-indigo-600 bg-indigo-600 text-white'
                : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
            )}
          >
            {label}
          </button>
        );
      })}
      {selected.length > 0 && (
        <button
          type="button"
          onClick={() => onChange([])}
          className="flex items-center gap-1 rounded-md px-2 py-1 text-xs font-semibold text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <X className="size-3.5" aria-hidden="true" />
          Clear all
        </button>
      )}
    </div>
  );
}
