import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface SegmentedTab<T extends string> {
  value: T;
  label: ReactNode;
}

/**
 * A row of ARIA tabs drawn as a segmented control: one tab stop, arrow keys move and select,
 * Home and End jump to the ends. The caller renders the tabpanel with `panelId` and labels it
 * with `idOf(value)`.
 */
export function SegmentedTabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
  idOf,
  panelId,
  disabled,
  className,
}: {
  tabs: readonly SegmentedTab<T>[];
  value: T;
  onChange: (value: T) => void;
  /** The tablist's accessible name. */
  label: string;
  idOf: (value: T) => string;
  panelId: string;
  disabled?: boolean;
  className?: string;
}) {
  const refs = useRef(new Map<T, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.value === value);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % tabs.length,
      ArrowLeft: (index - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    };
    const next = tabs[moves[event.key] ?? -1];
    if (!next) return;
    event.preventDefault();
    onChange(next.value);
    refs.current.get(next.value)?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      className={cn('flex max-w-full gap-1 rounded-lg bg-slate-100 p-1', className)}
    >
      {tabs.map((tab) => {
        const isSelected = tab.value === value;
        return (
          <button
            key={tab.value}
            ref={(node) => {
              if (node) refs.current.set(tab.value, node);
              else refs.current.delete(tab.value);
            }}
            id={idOf(tab.value)}
            type="button"
            role="tab"
            aria-selected={isSelected}
            aria-controls={panelId}
            tabIndex={isSelected ? 0 : -1}
            disabled={disabled}
            onClick={() => onChange(tab.value)}
            className={cn(
              // On a phone a long label wraps inside its tab rather than pushing the row off screen.
              'flex min-w-0 items-center gap-1.5 rounded-md px-3 py-1.5 text-left text-sm font-medium sm:whitespace-nowrap',
              'focus-visible:outline-2 focus-visible:outline-indigo-600',
              isSelected
                ? 'bg-white text-slate-900 shadow-sm'
                : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
