import { FileSearch, FolderOpen } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';

export const LIBRARY_LOAD_FAILED = 'Failed to fetch posts.';
export const NO_SEARCH_MATCH = 'No Posts Match Your Search';

/** docs/product.md#content-library: nothing matches the search, or the tab has nothing yet. */
export function LibraryEmpty({
  isSearch,
  emptyTitle,
  canCreate,
}: {
  isSearch: boolean;
  emptyTitle: string;
  canCreate: boolean;
}) {
  const Icon = isSearch ? FileSearch : FolderOpen;
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
      <Icon className="size-10 text-slate-400" aria-hidden="true" />
      <h2 className="text-lg font-semibold text-slate-900">
        {isSearch ? NO_SEARCH_MATCH : emptyTitle}
      </h2>
      <p className="max-w-sm text-sm text-slate-600">
        {isSearch
          ? 'Try other words, or look in another tab.'
          : 'Posts you create show up here, with their status and networks.'}
      </p>
      {!isSearch && canCreate && (
        <ButtonLink to={paths.createPost} variant="secondary" size="sm">
          Create a post
        </ButtonLink>
      )}
    </div>
  );
}
