import { FileSearch, FolderOpen, TriangleAlert } from 'lucide-react';
import { Button, ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';

export const LIBRARY_LOAD_FAILED = 'Failed to fetch posts.';
export const NO_SEARCH_MATCH = 'No Posts Match Your Search';

/** Spec §8: the library could not load; the server's sentence and a way to retry. */
export function LibraryError({
  message,
  onRetry,
  isRetrying,
}: {
  message: string;
  onRetry: () => void;
  isRetrying: boolean;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-2xl border border-red-200 bg-red-50 p-8 text-center text-red-900"
    >
      <TriangleAlert className="size-8 text-red-600" aria-hidden="true" />
      <p className="text-lg font-semibold">Oops! Something went wrong.</p>
      <p className="text-sm">{message}</p>
      <Button variant="secondary" onClick={onRetry} disabled={isRetrying}>
        Try Again
      </Button>
    </div>
  );
}

/** Spec §2: nothing matches the search, or the tab has nothing yet. */
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
