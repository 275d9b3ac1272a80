import { FilePen, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useBulkPosts, type BulkPostAction } from '@/lib/posts';
import { toast, toastError } from '@/lib/toast';

const BULK_TOAST = 'library-bulk';
const posts = (n: number) => `${n} post${n === 1 ? '' : 's'}`;

const COPY: Record<
  BulkPostAction,
  {
    title: (n: number) => string;
    message: (n: number) => string;
    confirm: string;
    done: (n: number) => string;
  }
> = {
  delete: {
    title: (n) => `Delete ${posts(n)}?`,
    message: (n) =>
      `${n === 1 ? 'The selected post' : `The ${n} selected posts`} will be deleted with ${n === 1 ? 'its' : 'their'} media and will not be published. This cannot be undone.`,
    confirm: 'Delete',
    done: (n) => `${posts(n)} deleted.`,
  },
  draft: {
    title: (n) => `Move ${posts(n)} to draft?`,
    message: (n) =>
      `${n === 1 ? 'The selected post' : `The ${n} selected posts`} will not be published until you schedule ${n === 1 ? 'it' : 'them'} again.`,
    confirm: 'Move to draft',
    done: (n) => `${posts(n)} moved to draft.`,
  },
};

/**
 * What can be done with the chosen posts: Delete and Move to draft, each after a confirmation
 * that says how many posts it changes. The server takes all of them or none and says why.
 */
export function BulkBar({
  orgId,
  selectedIds,
  canDelete,
  canDraft,
  onDone,
}: {
  orgId: string;
  selectedIds: readonly string[];
  canDelete: boolean;
  canDraft: boolean;
  onDone: () => void;
}) {
  const bulk = useBulkPosts(orgId);
  const [asking, setAsking] = useState<BulkPostAction | null>(null);
  const count = selectedIds.length;
  if (count === 0) return null;

  const run = (action: BulkPostAction) => {
    bulk.mutate(
      { action, postIds: [...selectedIds] },
      {
        onSuccess: ({ count: changed }) => {
          toast.success(COPY[action].done(changed), { id: BULK_TOAST });
          setAsking(null);
          onDone();
        },
        onError: (error) => {
          toastError(error, 'The posts could not be changed. Try again.', BULK_TOAST);
          setAsking(null);
        },
      },
    );
  };

  return (
    <div
      role="toolbar"
      aria-label="Selected posts"
      className="flex flex-wrap items-center gap-2 rounded-xl border border-indigo-200 bg-indigo-50 px-3 py-2"
    >
      <p className="mr-auto text-sm font-medium text-indigo-900" aria-live="polite">
        {posts(count)} selected
      </p>
      {canDraft && (
        <Button variant="secondary" size="sm" onClick={() => setAsking('draft')}>
          <FilePen className="size-4" aria-hidden="true" />
          Move to draft
        </Button>
      )}
      {canDelete && (
        <Button variant="danger" size="sm" onClick={() => setAsking('delete')}>
          <Trash2 className="size-4" aria-hidden="true" />
          Delete
        </Button>
      )}
      <Button variant="ghost" size="sm" onClick={onDone} aria-label="Clear selection">
        <X className="size-4" aria-hidden="true" />
        <span className="hidden sm:inline">Clear</span>
      </Button>
      {asking && (
        <ConfirmDialog
          open
          onOpenChange={(open) => {
            if (!open && !bulk.isPending) setAsking(null);
          }}
          title={COPY[asking].title(count)}
          message={COPY[asking].message(count)}
          confirmLabel={COPY[asking].confirm}
          onConfirm={() => run(asking)}
          isPending={bulk.isPending}
        />
      )}
    </div>
  );
}
