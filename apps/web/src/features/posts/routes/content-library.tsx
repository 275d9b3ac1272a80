import { LIBRARY_PAGE_SIZE } from '@herald/contract';
import { PenSquare, Plus } from 'lucide-react';
import { useCallback, useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { LoadingIndicator } from '@/components/ui/spinner';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { useCan } from '@/lib/permissions';
import { usePosts } from '@/lib/posts';
import { useTimeZone } from '@/lib/use-time-zone';
import { LIBRARY_LOAD_FAILED, LibraryEmpty } from '../components/library/library-states';
import {
  LIBRARY_PANEL_ID,
  libraryTab,
  libraryTabId,
  LibraryTabs,
  type LibraryTab,
} from '../components/library/library-tabs';
import { PostCard } from '../components/library/post-card';
import { SearchBox } from '../components/library/search-box';

interface LibraryView {
  tab: LibraryTab;
  q: string;
  page: number;
}

/**
 * Tab, search and page live in the address, so Back from a post returns to the same page of
 * the same list. Every change but paging starts again at page 1 (docs/product.md#content-library).
 */
function readView(params: URLSearchParams): LibraryView {
  const page = Number.parseInt(params.get('page') ?? '', 10);
  return {
    tab: libraryTab(params.get('tab')).value,
    q: params.get('q') ?? '',
    page: Number.isFinite(page) && page > 1 ? page : 1,
  };
}

function useLibraryView(): [LibraryView, (change: Partial<LibraryView>) => void] {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (change: Partial<LibraryView>) => {
      setParams(
        (previous) => {
          const { tab, q, page } = { ...readView(previous), page: 1, ...change };
          const next = new URLSearchParams(previous);
          const entries: Array<[string, string | null]> = [
            ['tab', tab === 'all' ? null : tab],
            ['q', q || null],
            ['page', page > 1 ? String(page) : null],
          ];
          for (const [key, value] of entries) {
            if (value === null) next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return [readView(params), update];
}

/** /content (docs/product.md#content-library): every post, filtered and searched by the server. */
export function ContentLibraryPage() {
  const { currentOrgId, member } = useAuth();
  const canCreate = useCan('POST /organizations/:orgId/post');
  const zone = useTimeZone();
  const [view, update] = useLibraryView();
  const tab = libraryTab(view.tab);
  const posts = usePosts(currentOrgId, {
    status: tab.status,
    q: view.q || undefined,
    page: view.page,
    pageSize: LIBRARY_PAGE_SIZE,
  });
  const orgName = member?.organizationId === currentOrgId ? member?.organization.name : null;
  const title = orgName ? `${orgName} Content Library` : 'Content Library';

  const data = posts.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.totalCount / data.pageSize)) : 1;
  const isOutOfRange = Boolean(data && !posts.isPlaceholderData && view.page > pageCount);

  // A page that emptied (posts deleted elsewhere) sends the reader to the last one that exists.
  useEffect(() => {
    if (isOutOfRange) update({ page: pageCount });
  }, [isOutOfRange, pageCount, update]);

  const renderPanel = () => {
    if (posts.isPending) return <LoadingIndicator label="Loading posts" className="py-16" />;
    if (posts.isError && !data) {
      return (
        <LoadError
          title="Oops! Something went wrong."
          message={errorMessage(posts.error, LIBRARY_LOAD_FAILED)}
          onRetry={() => void posts.refetch()}
          isRetrying={posts.isFetching}
        />
      );
    }
    if (!data || data.posts.length === 0) {
      if (isOutOfRange) return <LoadingIndicator label="Loading posts" className="py-16" />;
      return (
        <LibraryEmpty isSearch={view.q !== ''} emptyTitle={tab.emptyTitle} canCreate={canCreate} />
      );
    }
    return (
      <div className="flex flex-col gap-6">
        <ul
          aria-label="Posts"
          aria-busy={posts.isPlaceholderData}
          className={cn(
            'grid gap-4 sm:grid-cols-2 xl:grid-cols-4',
            posts.isPlaceholderData && 'opacity-60 transition-opacity',
          )}
        >
          {data.posts.map((post) => (
            <li key={post.id}>
              <PostCard post={post} zone={zone} />
            </li>
          ))}
        </ul>
        <Pagination
          label="Pages"
          page={view.page}
          pageCount={pageCount}
          onPageChange={(page) => update({ page })}
          disabled={posts.isPlaceholderData}
        />
      </div>
    );
  };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 pb-20 sm:pb-0">
      <title>{`${title} · Herald`}</title>
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          <p className="mt-1 text-slate-600">
            Drafts, scheduled and published posts of your organization.
          </p>
          <TimeZoneNote zone={zone} className="mt-1" />
        </div>
        {canCreate && (
          <ButtonLink to={paths.createPost} className="hidden sm:inline-flex">
            <PenSquare className="size-4" aria-hidden="true" />
            Create Post
          </ButtonLink>
        )}
      </header>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <LibraryTabs value={view.tab} onChange={(next) => update({ tab: next })} />
        <SearchBox value={view.q} onSearch={(q) => update({ q })} />
      </div>

      <section id={LIBRARY_PANEL_ID} role="tabpanel" aria-labelledby={libraryTabId(view.tab)}>
        {renderPanel()}
      </section>

      {canCreate && (
        <Link
          to={paths.createPost}
          aria-label="Create a new post"
          className="fixed right-5 bottom-5 z-30 grid size-14 place-items-center rounded-full bg-indigo-600 text-white shadow-lg hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 sm:hidden"
        >
          <Plus className="size-6" aria-hidden="true" />
        </Link>
      )}
    </div>
  );
}
