import { Search } from 'lucide-react';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';

interface AdminSearchState {
  search: string;
  setSearch: (text: string) => void;
  /** Sets the search of another page, before going there. */
  searchOn: (path: string, text: string) => void;
}

const AdminSearchContext = createContext<AdminSearchState | null>(null);

/**
 * The back-office's one search text, shared by the header box and the page's table (docs/product.md#back-office:
 * the header search filters the current table). It belongs to a page: moving to another page
 * starts with an empty search.
 */
export function AdminSearchProvider({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const [state, setState] = useState({ pathname, search: '' });
  const search = state.pathname === pathname ? state.search : '';
  const value: AdminSearchState = {
    search,
    setSearch: (text) => setState({ pathname, search: text }),
    searchOn: (path, text) => setState({ pathname: path, search: text }),
  };
  return <AdminSearchContext.Provider value={value}>{children}</AdminSearchContext.Provider>;
}

export function useAdminSearch(): AdminSearchState {
  const state = useContext(AdminSearchContext);
  if (!state) throw new Error('useAdminSearch needs an AdminSearchProvider (the admin shell).');
  return state;
}

/** The value, once it has stopped changing for `delayMs` (typing does not call per key). */
export function useDebouncedValue<T>(value: T, delayMs = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** What the header box searches on each page; elsewhere Enter searches users. */
const targets: Record<string, { placeholder: string }> = {
  [paths.adminUsers]: { placeholder: 'Search users...' },
  [paths.adminPlans]: { placeholder: 'Search plans...' },
  [paths.adminPlatforms]: { placeholder: 'Search platforms...' },
};

/** The header's search box (docs/product.md#back-office). */
export function AdminHeaderSearch() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const state = useContext(AdminSearchContext);
  const [draft, setDraft] = useState('');
  if (!state) return null;
  const target = targets[pathname];
  const value = target ? state.search : draft;

  return (
    <form
      role="search"
      className="relative max-w-sm flex-1"
      onSubmit={(event) => {
        event.preventDefault();
        if (target || !draft.trim()) return;
        // No table here: look the words up among users.
        state.searchOn(paths.adminUsers, draft.trim());
        setDraft('');
        void navigate(paths.adminUsers);
      }}
    >
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
        aria-hidden="true"
      />
      <input
        type="search"
        aria-label="Search the back-office"
        placeholder={target?.placeholder ?? 'Search users...'}
        value={value}
        onChange={(event) =>
          target ? state.setSearch(event.target.value) : setDraft(event.target.value)
        }
        className="w-full rounded-lg border border-slate-300 py-2 pr-3 pl-9 text-sm placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-indigo-600"
      />
    </form>
  );
}

/**
 * The search a server-paged table asks for (debounced) and its page, back at 1 whenever the
 * search changes.
 */
export function usePagedSearch() {
  const { search } = useAdminSearch();
  const query = useDebouncedValue(search.trim());
  const [paging, setPaging] = useState({ query, page: 1 });
  const page = paging.query === query ? paging.page : 1;
  return { query, page, setPage: (next: number) => setPaging({ query, page: next }) };
}
