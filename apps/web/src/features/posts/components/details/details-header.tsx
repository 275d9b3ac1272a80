import { ArrowLeft, Pencil, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { StatusBadge } from '../status-badge';

/**
 * docs/product.md#post-details: Back to Posts, the status, and Edit Post (never for a published post); while
 * editing, Cancel and Save Changes. Delete Post is offered to members who may delete.
 */
export function DetailsHeader({
  title,
  status,
  isEditing,
  canEdit,
  canDelete,
  canSave,
  isSaving,
  onEdit,
  onCancel,
  onSave,
  onDelete,
}: {
  /** The post's own title, shown under the heading when it has one. */
  title?: string | null;
  status: string;
  isEditing: boolean;
  canEdit: boolean;
  canDelete: boolean;
  canSave: boolean;
  isSaving: boolean;
  onEdit: () => void;
  onCancel: () => void;
  onSave: () => void;
  onDelete: () => void;
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
          {isEditing ? (
            <>
              <Button variant="secondary" onClick={onCancel} disabled={isSaving}>
                Cancel
              </Button>
              <Button onClick={onSave} disabled={!canSave || isSaving}>
                {isSaving && <Spinner className="size-4 text-white" />}
                Save Changes
              </Button>
            </>
          ) : (
            <>
              {canEdit && (
                <Button onClick={onEdit}>
                  <Pencil className="size-4" aria-hidden="true" />
                  Edit Post
                </Button>
              )}
              {canDelete && (
                <Button variant="secondary" onClick={onDelete}>
                  <Trash2 className="size-4 text-red-600" aria-hidden="true" />
                  Delete Post
                </Button>
              )}
            </>
          )}
        </div>
      </div>
    </header>
  );
}
