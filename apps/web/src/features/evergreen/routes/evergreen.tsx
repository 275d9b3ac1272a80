import type { EvergreenCollection } from '@herald/contract';
import { Pause, Pencil, Play, Plus, Recycle, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadError } from '@/components/ui/load-error';
import { LoadingIndicator } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import {
  useCreateCollection,
  useDeleteCollection,
  useEvergreenCollection,
  useEvergreenCollections,
  useRemoveEvergreenPost,
  useUpdateCollection,
} from '@/lib/evergreen';
import { useIntegrations } from '@/lib/integrations';
import { toast, toastError } from '@/lib/toast';
import { AddPostsDialog } from '../components/add-posts-dialog';
import { CollectionForm, type CollectionValues } from '../components/collection-form';

const dayText = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
const timeText = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

/** The collection's rule in one sentence. */
export function ruleText(c: EvergreenCollection) {
  const every = c.minDaysBetween === 1 ? 'once a day' : `once every ${c.minDaysBetween} days`;
  const end = c.endAfterCycles
    ? `, ${c.endAfterCycles === 1 ? 'once' : `${c.endAfterCycles} times`} in all`
    : c.endAt
      ? `, until ${dayText(c.endAt)}`
      : '';
  return `Each post at most ${every}${end}.`;
}

function StatusPill({ c }: { c: EvergreenCollection }) {
  const [label, style] = c.ended
    ? ['Ended', 'bg-slate-100 text-slate-700']
    : c.paused
      ? ['Paused', 'bg-amber-100 text-amber-800']
      : ['Active', 'bg-emerald-100 text-emerald-800'];
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${style}`}>{label}</span>;
}

function CollectionCard({ orgId, c }: { orgId: string; c: EvergreenCollection }) {
  const detail = useEvergreenCollection(orgId, c.id);
  const integrations = useIntegrations(orgId);
  const update = useUpdateCollection(orgId);
  const remove = useDeleteCollection(orgId);
  const removePost = useRemoveEvergreenPost(orgId);
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const names = c.integrationIds.map((id) => {
    const account = integrations.data?.find((a) => a.id === id);
    return account
      ? `${account.metadata.name ?? account.metadata.username ?? account.platform.name} (${account.platform.name})`
      : 'an account';
  });
  const posts = detail.data?.posts ?? [];

  const save = (values: CollectionValues) =>
    update.mutate(
      { id: c.id, ...values },
      {
        onSuccess: () => {
          setEditing(false);
          setError(null);
          toast.success('Collection saved.');
        },
        onError: (err) => setError(errorMessage(err, 'Failed to save the collection.')),
      },
    );

  return (
    <li
      aria-label={c.name}
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <Recycle className="size-5 text-emerald-600" aria-hidden="true" />
            <span className="truncate">{c.name}</span>
            <StatusPill c={c} />
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {ruleText(c)} To {names.join(', ')}.
          </p>
          <p className="mt-1 text-xs text-slate-500">
            {c.postCount === 1 ? '1 post' : `${c.postCount} posts`} ·{' '}
            {c.fillCount === 1 ? '1 copy made' : `${c.fillCount} copies made`}
            {c.lastFillAt && ` · latest for ${timeText(c.lastFillAt)}`}
          </p>
          {c.lastError && (
            <p role="status" className="mt-1 text-sm text-red-700">
              {c.lastError}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { id: c.id, paused: !c.paused },
                { onError: (err) => toastError(err, 'Failed to change the collection.') },
              )
            }
          >
            {c.paused ? (
              <Play className="size-4" aria-hidden="true" />
            ) : (
              <Pause className="size-4" aria-hidden="true" />
            )}
            {c.paused ? 'Resume' : 'Pause'}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setEditing((v) => !v)}>
            <Pencil className="size-4" aria-hidden="true" />
            Edit
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirmDelete(true)}>
            <Trash2 className="size-4" aria-hidden="true" />
            <span className="sr-only">Delete {c.name}</span>
          </Button>
        </div>
      </div>
      {editing && (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <CollectionForm
            orgId={orgId}
            initial={c}
            submitLabel="Save Collection"
            isPending={update.isPending}
            error={error}
            onSubmit={save}
            onCancel={() => setEditing(false)}
          />
        </div>
      )}
      <div className="mt-4 border-t border-slate-100 pt-3">
        <div className="flex items-center justify-between gap-2">
          <h3 className="text-sm font-semibold text-slate-900">Posts, in turn</h3>
          <Button size="sm" variant="secondary" onClick={() => setAdding(true)}>
            <Plus className="size-4" aria-hidden="true" />
            Add Posts
          </Button>
        </div>
        {detail.isPending ? (
          <LoadingIndicator label="Loading the posts" className="py-2" />
        ) : posts.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">
            No posts yet: add posts that are worth sharing again.
          </p>
        ) : (
          <ol className="mt-2 flex flex-col divide-y divide-slate-100">
            {posts.map((p) => (
              <li key={p.postId} className="flex items-center gap-3 py-2 text-sm">
                <Link
                  to={paths.postDetails.replace(':postId', p.postId)}
                  className="min-w-0 flex-1 truncate text-slate-900 hover:underline"
                >
                  {p.label}
                </Link>
                <span className="shrink-0 text-xs text-slate-500">
                  {p.useCount === 0
                    ? 'Not yet repeated'
                    : `${p.useCount}× · latest ${timeText(p.lastUsedAt!)}`}
                </span>
                <button
                  type="button"
                  aria-label={`Remove “${p.label}” from ${c.name}`}
                  onClick={() =>
                    removePost.mutate(
                      { id: c.id, postId: p.postId },
                      { onError: (err) => toastError(err, 'Failed to remove the post.') },
                    )
                  }
                  className="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ol>
        )}
      </div>
      <AddPostsDialog
        orgId={orgId}
        collectionId={c.id}
        collectionName={c.name}
        already={posts.map((p) => p.postId)}
        open={adding}
        onOpenChange={setAdding}
      />
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Delete ${c.name}?`}
        message="It stops filling empty slots. Its posts and the copies already scheduled stay."
        confirmLabel="Delete Collection"
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(c.id, {
            onSuccess: () => {
              setConfirmDelete(false);
              toast.success('Collection deleted.');
            },
            onError: (err) => toastError(err, 'Failed to delete the collection.'),
          })
        }
      />
    </li>
  );
}

/**
 * /evergreen (docs/evergreen.md): the organization's evergreen collections. Each refills its
 * accounts' empty queue slots with copies of its posts, in turn; the calendar shows what it will
 * fill.
 */
export function EvergreenPage() {
  const { currentOrgId } = useAuth();
  const orgId = currentOrgId ?? '';
  const collections = useEvergreenCollections(orgId);
  const create = useCreateCollection(orgId);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onCreate = (values: CollectionValues) =>
    create.mutate(values, {
      onSuccess: () => {
        setCreating(false);
        setError(null);
        toast.success('Collection created. Add posts to it to fill empty slots.');
      },
      onError: (err) => setError(errorMessage(err, 'Failed to create the collection.')),
    });

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <title>Evergreen · Herald</title>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Evergreen</h1>
          <p className="mt-1 max-w-2xl text-slate-600">
            Collections of posts worth sharing again. Each fills the empty slots of its accounts’
            posting queue with copies of its posts, in turn; the{' '}
            <Link to={paths.calendar} className="font-medium text-indigo-700 hover:underline">
              calendar
            </Link>{' '}
            shows what it will fill.
          </p>
        </div>
        {!creating && (
          <Button onClick={() => setCreating(true)}>
            <Plus className="size-4" aria-hidden="true" />
            New Collection
          </Button>
        )}
      </header>
      {creating && (
        <section
          aria-label="New collection"
          className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
        >
          <CollectionForm
            orgId={orgId}
            submitLabel="Create Collection"
            isPending={create.isPending}
            error={error}
            onSubmit={onCreate}
            onCancel={() => setCreating(false)}
          />
        </section>
      )}
      {collections.isPending ? (
        <LoadingIndicator label="Loading collections" className="py-12" />
      ) : collections.isError ? (
        <LoadError
          title="Error Loading Collections"
          message={errorMessage(collections.error, 'Failed to load the collections.')}
          onRetry={() => void collections.refetch()}
        />
      ) : collections.data.length === 0 ? (
        !creating && (
          <p className="rounded-2xl border border-dashed border-slate-300 p-8 text-center text-slate-600">
            No collections yet. Create one, add your best posts, and they will fill the empty slots
            of your posting queue.
          </p>
        )
      ) : (
        <ul className="flex flex-col gap-4">
          {collections.data.map((c) => (
            <CollectionCard key={c.id} orgId={orgId} c={c} />
          ))}
        </ul>
      )}
    </div>
  );
}
