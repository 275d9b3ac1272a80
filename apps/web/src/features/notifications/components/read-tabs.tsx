import { useRef, type KeyboardEvent } from 'react';
import { cn } from '@/lib/cn';
import { TABS, type ReadTab } from './notification-format';

export const LIST_PANEL_ID = 'notification-list-panel';
export const tabId = (tab: ReadTab) => `notification-tab-${tab}`;

/** All, Unread, Read as ARIA tabs: arrow keys, Home and End move between them. */
export function ReadTabs({
  value,
  counts,
  onChange,
}: {
  value: ReadTab;
  counts: Record<ReadTab, number>;
  onChange: (tab: ReadTab) => void;
}) {
  const refs = useRef(new Map<ReadTab, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent) => {
    const index = TABS.findIndex((t) => t.value === value);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % TABS.length,
      ArrowLeft: (index - 1 + TABS.length) % TABS.length,
      Home: 0,
      End: TABS.length - 1,
    };
    const next = TABS[moves[event.key] ?? -1];
    if (!next) return;
    event.preventDefault();
    onChange(next.value);
    refs.current.get(next.value)?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label="Show notifications"
      onKeyDown={onKeyDown}
      className="flex gap-1 rounded-lg bg-slate-100 p-1"
    >
      {TABS.map((tab) => {
        const isSelected = tab.value === value;
        return (
          <button
            key={tab.value}
            ref={(node) => {
              if (node) refs.current.set(tab.value, node);
              else refs.current.delete(tab.value);
            }}
            id={tabId(tab.value)}
            type="button"
            role="tab"
            aria-selected={isSelected}
            aria-controls={LIST_PANEL_ID}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onChange(tab.value)}
            className={cn(
              'flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium',
              'focus-visible:outline-2 focus-visible:outline-indigo-600',
              isSelected
                ? 'bg-white text-slate-900 shadow-sm'
                : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {tab.label}
            <span className="rounded-full bg-slate-200 px-1.5 text-xs text-slate-700">
              {counts[tab.value]}
            </span>
          </button>
        );
      })}
    </div>
  );
}
