import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Modal, ModalActions } from '@/components/ui/modal';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useAddEvergreenPosts } from '@/lib/evergreen';
import { usePosts } from '@/lib/posts';
import { toast } from '@/lib/toast';

const labelOf = (post: { title?: string | null; content: unknown }) => {
  const text =
    post.title?.trim() ||
    (typeof post.content === 'string'
      ? post.content
      : String((post.content as { default?: string }).default ?? ''));
  return text.trim() || 'Untitled post';
};

/** Ticks posts of the library (newest first) to add to a collection, after its others. */
export function AddPostsDialog({
  orgId,
  collectionId,
  collectionName,
  already,
  open,
  onOpenChange,
}: {
  orgId: string;
  collectionId: string;
  collectionName: string;
  already: readonly string[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const list = usePosts(open ? orgId : null, { page: 1, pageSize: 50 });
  const add = useAddEvergreenPosts(orgId);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const posts = (list.data?.posts ?? []).filter(
    (p) => !already.includes(p.id) && p.source?.kind !== 'evergreen',
  );

  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Add posts to ${collectionName}`}
      description="Each post goes out again as a copy, with its texts for each account and its media."
      size="lg"
    >
      {list.isPending ? (
        <LoadingIndicator label="Loading posts" className="py-6" />
      ) : posts.length === 0 ? (
        <p className="text-sm text-slate-600">No other posts to add yet.</p>
      ) : (
        <ul className="flex max-h-80 flex-col gap-1 overflow-y-auto">
          {posts.map((post) => (
            <li key={post.id}>
              <label className="flex items-start gap-2 rounded p-1 text-sm text-slate-800 hover:bg-slate-50">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 rounded border-slate-300"
                  checked={chosen.has(post.id)}
                  onChange={() => toggle(post.id)}
                />
                <span className="line-clamp-2 break-words">{labelOf(post)}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
      <ModalActions>
        <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={add.isPending}>
          Cancel
        </Button>
        <Button
          disabled={chosen.size === 0 || add.isPending}
          onClick={() =>
            add.mutate(
              { id: collectionId, postIds: [...chosen] },
              {
                onSuccess: () => {
                  toast.success(chosen.size === 1 ? 'Post added.' : `${chosen.size} posts added.`);
                  setChosen(new Set());
                  onOpenChange(false);
                },
                onError: (err) => setError(errorMessage(err, 'Failed to add the posts.')),
              },
            )
          }
        >
          {add.isPending && <Spinner className="size-4 text-white" />}
          {chosen.size > 1 ? `Add ${chosen.size} Posts` : 'Add Post'}
        </Button>
      </ModalActions>
    </Modal>
  );
}
