import { ArrowLeft, Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { generatePath, Link } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { StatusBadge } from '../status-badge';

/**
 * docs/product.md#post-details: Back to Posts, the status, and Edit Post (never for a published
 * post), which opens the composer with the post loaded (Cancel and Save Changes are there).
 * Delete Post is offered to members who may delete.
 */
export function DetailsHeader({
  postId,
  title,
  status,
  canEdit,
  canDelete,
  onDelete,
  extraActions,
}: {
  postId: string;
  /** The post's own title, shown under the heading when it has one. */
  title?: string | null;
  status: string;
  canEdit: boolean;
  canDelete: boolean;
  onDelete: () => void;
  /** docs/product.md#duplicate: the Duplicate button, when the member may use it. */
  extraActions?: ReactNode;
}) {
  return (
    <header className="flex flex-col gap-4">
      <Link
        to={paths.content}
        className="inline-flex w-fit items-center gap-1.5 rounded-md text-sm font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Posts
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-3">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Post Details</h1>
          <StatusBadge status={status} className="text-sm" />
        </div>
        {title?.trim() && (
          <p className="order-first w-full text-lg font-semibold break-words text-slate-800">
            {title.trim()}
          </p>
        )}
        <div className="flex flex-wrap gap-3">
          {canEdit && (
            <ButtonLink to={generatePath(paths.editPost, { postId })}>
              <Pencil className="size-4" aria-hidden="true" />
              Edit Post
            </ButtonLink>
          )}
          {extraActions}
          {canDelete && (
            <Button variant="secondary" onClick={onDelete}>
              <Trash2 className="size-4 text-red-600" aria-hidden="true" />
              Delete Post
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
