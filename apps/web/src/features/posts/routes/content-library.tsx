import { LIBRARY_PAGE_SIZE, type OrgRoute } from '@herald/contract';
import { FileUp, PenSquare, Plus } from 'lucide-react';
import { useCallback, useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { ExportPostsButton } from '../components/library/export-posts-button';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { LoadingIndicator } from '@/components/ui/spinner';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { useCan, usePermissions } from '@/lib/permissions';
import { useIntegrations } from '@/lib/integrations';
import { usePosts } from '@/lib/posts';
import { useTimeZoneRule } from '@/lib/use-time-zone';
import { BulkBar } from '../components/library/bulk-bar';
import { LibraryFilters } from '../components/library/library-filters';
import { LIBRARY_LOAD_FAILED, LibraryEmpty } from '../components/library/library-states';
import {
  LIBRARY_PANEL_ID,
  libraryTab,
  libraryTabId,
  LibraryTabs,
  type LibraryTab,
} from '../components/library/library-tabs';
import { PostCard } from '../components/library/post-card';
import { PostTable } from '../components/library/post-table';
import { SearchBox } from '../components/library/search-box';
import { usePostSelection } from '../components/library/selection';
import { useLibraryLayout, ViewToggle } from '../components/library/view-toggle';

/** The bulk actions of the selection bar (docs/product.md#bulk-actions). */
const BULK_ROUTES: readonly OrgRoute[] = [
  'POST /organizations/:orgId/posts/bulk/reschedule',
  'POST /organizations/:orgId/posts/bulk/queue',
  'POST /organizations/:orgId/posts/bulk/duplicate',
  'POST /organizations/:orgId/posts/bulk/approve',
  'POST /organizations/:orgId/posts/bulk/reject',
  'POST /organizations/:orgId/posts/bulk/draft',
  'POST /organizations/:orgId/posts/bulk/delete',
];

interface LibraryView {
  tab: LibraryTab;
  q: string;
  /** Network (platform id) and account (integration id) filters; '' for all. */
  network: string;
  account: string;
  page: number;
}

/**
 * Tab, search, filters and page live in the address, so Back from a post returns to the same page of
 * the same list. Every change but paging starts again at page 1 (docs/product.md#content-library).
 */
function readView(params: URLSearchParams): LibraryView {
  const page = Number.parseInt(params.get('page') ?? '', 10);
  return {
    tab: libraryTab(params.get('tab')).value,
    q: params.get('q') ?? '',
    network: params.get('network') ?? '',
    account: params.get('account') ?? '',
    page: Number.isFinite(page) && page > 1 ? page : 1,
  };
}

function useLibraryView(): [LibraryView, (change: Partial<LibraryView>) => void] {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (change: Partial<LibraryView>) => {
      setParams(
        (previous) => {
          const { tab, q, network, account, page } = {
            ...readView(previous),
            page: 1,
            ...change,
          };
          const next = new URLSearchParams(previous);
          const entries: Array<[string, string | null]> = [
            ['tab', tab === 'all' ? null : tab],
            ['q', q || null],
            ['network', network || null],
            ['account', account || null],
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
  const { canCall } = usePermissions();
  const canEdit = useCan('PUT /organizations/:orgId/post/:postId');
  const { zone, source: zoneSource } = useTimeZoneRule();
  const [view, update] = useLibraryView();
  const [layout, setLayout] = useLibraryLayout();
  const tab = libraryTab(view.tab);
  const posts = usePosts(currentOrgId, {
    status: tab.status,
    q: view.q || undefined,
    platformId: view.network || undefined,
    integrationId: view.account || undefined,
    page: view.page,
    pageSize: LIBRARY_PAGE_SIZE,
  });
  const accounts = useIntegrations(currentOrgId);
  const shown = posts.isPlaceholderData ? [] : (posts.data?.posts ?? []);
  const { selection, selectedIds, allSelected, selectAll, clear } = usePostSelection(
    JSON.stringify(view),
    shown,
  );
  // Any bulk action the role allows makes the posts selectable (the bar shows those only).
  const canSelect = BULK_ROUTES.some((route) => canCall(route));
  const isFiltered = view.q !== '' || view.network !== '' || view.account !== '';
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
        <LibraryEmpty isSearch={isFiltered} emptyTitle={tab.emptyTitle} canCreate={canCreate} />
      );
    }
    return (
      <div className="flex flex-col gap-4">
        {canSelect && (
          <label className="flex min-h-9 shrink-0 items-center gap-2 self-start text-sm text-slate-700">
            <input
              type="checkbox"
              checked={allSelected}
              onChange={(event) => selectAll(event.target.checked)}
              className="size-4 accent-indigo-600"
            />
            Select all on this page
          </label>
        )}
        {/* A sibling of the posts, so that it stays in view (sticky) while they scroll by. */}
        {canSelect && selectedIds.length > 0 && (
          <BulkBar
            orgId={currentOrgId ?? ''}
            selected={shown.filter((post) => selectedIds.includes(post.id))}
            zone={zone}
            onDone={clear}
          />
        )}
        {layout === 'list' ? (
          <PostTable
            posts={data.posts}
            zone={zone}
            selection={canSelect ? selection : null}
            busy={posts.isPlaceholderData}
            canEdit={canEdit}
          />
        ) : (
          <ul
            aria-label="Posts"
            aria-busy={posts.isPlaceholderData}
            className={cn(
              'grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4',
              posts.isPlaceholderData && 'opacity-60 transition-opacity',
            )}
          >
            {data.posts.map((post) => (
              <li key={post.id}>
                <PostCard
                  post={post}
                  zone={zone}
                  selection={canSelect ? selection : null}
                  canEdit={canEdit}
                />
              </li>
            ))}
          </ul>
        )}
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
          <TimeZoneNote zone={zone} source={zoneSource} className="mt-1" />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {currentOrgId && <ExportPostsButton orgId={currentOrgId} zone={zone} />}
          {canCreate && (
            <ButtonLink to={paths.importPosts} variant="secondary">
              <FileUp className="size-4" aria-hidden="true" />
              Import CSV
            </ButtonLink>
          )}
          {canCreate && (
            <ButtonLink to={paths.createPost} className="hidden sm:inline-flex">
              <PenSquare className="size-4" aria-hidden="true" />
              Create Post
            </ButtonLink>
          )}
        </div>
      </header>

      <div className="flex flex-col gap-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <LibraryTabs value={view.tab} onChange={(next) => update({ tab: next })} />
          <SearchBox value={view.q} onSearch={(q) => update({ q })} />
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <LibraryFilters
            accounts={accounts.data ?? []}
            network={view.network}
            account={view.account}
            onChange={(change) => update(change)}
          />
          <ViewToggle value={layout} onChange={setLayout} />
        </div>
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
