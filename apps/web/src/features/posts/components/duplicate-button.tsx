import type { Post } from '@herald/contract';
import { Copy } from 'lucide-react';
import { generatePath, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { useCan } from '@/lib/permissions';
import { useDuplicatePost } from '@/lib/post-extras';
import { toast, toastError } from '@/lib/toast';
import { postName } from './library/selection';

export const DUPLICATED = 'Post duplicated as a draft. Make your changes and save.';
export const DUPLICATE_FAILED = 'Failed to duplicate the post.';

/**
 * docs/product.md#duplicate: copies the post as a new draft (texts, accounts, files with their
 * alt text; not its time or results) and opens the copy in the composer. `look`: an icon over a
 * library card, a row action, or the details page's button.
 */
export function DuplicatePostButton({
  post,
  look,
  className,
}: {
  post: Post;
  look: 'icon' | 'row' | 'button';
  className?: string;
}) {
  const { currentOrgId } = useAuth();
  const may = useCan('POST /organizations/:orgId/posts/:postId/duplicate');
  const duplicate = useDuplicatePost(currentOrgId ?? '');
  const navigate = useNavigate();
  if (!may) return null;
  const run = () =>
    duplicate.mutate(post.id, {
      onSuccess: (copy) => {
        toast.success(DUPLICATED);
        void navigate(generatePath(paths.editPost, { postId: copy.id }));
      },
      onError: (error) => toastError(error, DUPLICATE_FAILED),
    });
  const label = `Duplicate ${postName(post)}`;
  if (look === 'button') {
    return (
      <Button
        variant="secondary"
        onClick={run}
        disabled={duplicate.isPending}
        className={className}
      >
        <Copy className="size-4" aria-hidden="true" />
        {duplicate.isPending ? 'Duplicating…' : 'Duplicate'}
      </Button>
    );
  }
  if (look === 'row') {
    return (
      <button
        type="button"
        onClick={run}
        disabled={duplicate.isPending}
        aria-label={label}
        className={cn(
          'inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm font-semibold text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-60',
          className,
        )}
      >
        <Copy className="size-3.5" aria-hidden="true" />
        Duplicate
      </button>
    );
  }
  return (
    <button
      type="button"
      onClick={run}
      disabled={duplicate.isPending}
      aria-label={label}
      title="Duplicate"
      className={cn(
        'grid size-9 place-items-center rounded-lg bg-white/90 text-slate-700 shadow-sm ring-1 ring-slate-200 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-60',
        className,
      )}
    >
      <Copy className="size-4" aria-hidden="true" />
    </button>
  );
}
