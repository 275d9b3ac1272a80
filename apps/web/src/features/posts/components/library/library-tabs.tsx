import type { PostStatus } from '@herald/contract';
import { useRef, type KeyboardEvent } from 'react';
import { cn } from '@/lib/cn';

export type LibraryTab = 'all' | 'published' | 'scheduled' | 'drafts';

export interface LibraryTabInfo {
  value: LibraryTab;
  label: string;
  /** What the server filters on; All Posts sends no status. */
  status: PostStatus | undefined;
  /** Spec §2: 'No {tab label} Yet', worded so each reads as a sentence. */
  emptyTitle: string;
}

export const LIBRARY_TABS: readonly LibraryTabInfo[] = [
  { value: 'all', label: 'All Posts', status: undefined, emptyTitle: 'No Posts Yet' },
  {
    value: 'published',
    label: 'Published',
    status: 'published',
    emptyTitle: 'No Published Posts Yet',
  },
  {
    value: 'scheduled',
    label: 'Scheduled',
    status: 'scheduled',
    emptyTitle: 'No Scheduled Posts Yet',
  },
  { value: 'drafts', label: 'Drafts', status: 'draft', emptyTitle: 'No Drafts Yet' },
];

export const LIBRARY_PANEL_ID = 'library-panel';
export const libraryTabId = (tab: LibraryTab) => `library-tab-${tab}`;

export function libraryTab(value: string | null): LibraryTabInfo {
  return LIBRARY_TABS.find((tab) => tab.value === value) ?? LIBRARY_TABS[0]!;
}

/** All Posts, Published, Scheduled, Drafts as ARIA tabs: arrow keys, Home and End move. */
export function LibraryTabs({
  value,
  onChange,
}: {
  value: LibraryTab;
  onChange: (tab: LibraryTab) => void;
}) {
  const refs = useRef(new Map<LibraryTab, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent) => {
    const index = LIBRARY_TABS.findIndex((t) => t.value === value);
    const count = LIBRARY_TABS.length;
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % count,
      ArrowLeft: (index - 1 + count) % count,
      Home: 0,
      End: count - 1,
    };
    const next = LIBRARY_TABS[moves[event.key] ?? -1];
    if (!next) return;
    event.preventDefault();
    onChange(next.value);
    refs.current.get(next.value)?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label="Filter posts by status"
      onKeyDown={onKeyDown}
      className="flex w-full gap-1 overflow-x-auto rounded-lg bg-slate-100 p-1 sm:w-auto"
    >
      {LIBRARY_TABS.map((tab) => {
        const isSelected = tab.value === value;
        return (
          <button
            key={tab.value}
            ref={(node) => {
              if (node) refs.current.set(tab.value, node);
              else refs.current.delete(tab.value);
            }}
            id={libraryTabId(tab.value)}
            type="button"
            role="tab"
            aria-selected={isSelected}
            aria-controls={LIBRARY_PANEL_ID}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onChange(tab.value)}
            className={cn(
              'rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap',
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
