import { Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

/** How long typing must pause before the search goes to the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * 'Search content...': shows every keystroke at once but reports the text only after a pause,
 * so the server gets one search per word rather than one per letter. When the reported value
 * changes from outside (back and forward in history), the box follows it.
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const [lastValue, setLastValue] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  if (value !== lastValue) {
    setLastValue(value);
    if (value !== text.trim()) setText(value);
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  const onChange = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onSearch(next.trim()), SEARCH_DEBOUNCE_MS);
  };

  return (
    <div className="relative w-full sm:max-w-xs">
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
        aria-hidden="true"
      />
      <input
        type="search"
        aria-label="Search content"
        placeholder="Search content..."
        value={text}
        maxLength={200}
        onChange={(event) => onChange(event.target.value)}
        className="block w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
      />
    </div>
  );
}
