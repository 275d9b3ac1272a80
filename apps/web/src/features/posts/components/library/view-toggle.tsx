import { LayoutGrid, List } from 'lucide-react';
import { cn } from '@/lib/cn';
import { readStorage, storageKeys, writeStorage } from '@/lib/storage';
import { useState } from 'react';

export type LibraryLayout = 'cards' | 'list';

const LAYOUTS = [
  { value: 'cards', label: 'Cards', Icon: LayoutGrid },
  { value: 'list', label: 'List', Icon: List },
] as const;

/** Cards or list, remembered on this browser (a person who works in the table keeps it). */
export function useLibraryLayout(): [LibraryLayout, (layout: LibraryLayout) => void] {
  const [layout, setLayout] = useState<LibraryLayout>(() =>
    readStorage(storageKeys.libraryView) === 'list' ? 'list' : 'cards',
  );
  const choose = (next: LibraryLayout) => {
    setLayout(next);
    writeStorage(storageKeys.libraryView, next);
  };
  return [layout, choose];
}

/** Cards | List: two toggle buttons, the pressed one is the view shown. */
export function ViewToggle({
  value,
  onChange,
}: {
  value: LibraryLayout;
  onChange: (layout: LibraryLayout) => void;
}) {
  return (
    <div
      role="group"
      aria-label="View"
      className="inline-flex shrink-0 self-start rounded-lg sm:self-auto border border-slate-300 bg-white p-0.5 shadow-sm"
    >
      {LAYOUTS.map(({ value: layout, label, Icon }) => (
        <button
          key={layout}
          type="button"
          aria-pressed={value === layout}
          onClick={() => onChange(layout)}
          className={cn(
            'inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
            value === layout ? 'bg-indigo-600 text-white' : 'text-slate-700 hover:bg-slate-100',
          )}
        >
          <Icon className="size-4" aria-hidden="true" />
          {label}
        </button>
      ))}
    </div>
  );
}
