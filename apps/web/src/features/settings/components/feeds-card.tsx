import {
  DEFAULT_FEED_TEMPLATE,
  FEED_IMPORT_LATEST_MAX,
  FEED_ITEM_MAX_ATTEMPTS,
  type Feed,
  type FeedDestination,
  type FeedPreview,
} from '@herald/contract';
import { Pause, Play, Plus, RefreshCw, Rss, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { SelectField, TextField } from '@/components/ui/form-field';
import { NetworkMark } from '@/components/ui/network-mark';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useIntegrations } from '@/lib/integrations';
import { toast, toastError } from '@/lib/toast';
import {
  useCheckFeed,
  useCreateFeed,
  useDeleteFeed,
  useFeedItems,
  useFeeds,
  usePreviewFeed,
  useUpdateFeed,
} from '../api/feeds';

const DESTINATIONS: Array<{ value: FeedDestination; label: string }> = [
  { value: 'draft', label: 'Drafts' },
  { value: 'queue', label: 'Posting queue (next free slot)' },
  { value: 'approval', label: 'Approval' },
];
const DESTINATION_WORDS: Record<FeedDestination, string> = {
  draft: 'to drafts',
  queue: 'to the queue',
  approval: 'for approval',
};
const OUTCOME_WORDS = { posted: 'Post made', seen: 'Seen (older)', failed: 'Not posted' };

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

function PreviewBox({ preview }: { preview: FeedPreview }) {
  return (
    <div role="status" className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm">
      <p className="font-medium text-slate-900">
        {preview.title ?? 'Untitled feed'} ·{' '}
        {preview.itemCount === 1 ? '1 item' : `${preview.itemCount} items`}
      </p>
      {preview.firstItem ? (
        <>
          <p className="mt-2 text-xs text-slate-500">The newest item would read:</p>
          <p className="mt-1 rounded bg-white p-2 break-words whitespace-pre-wrap text-slate-900">
            {preview.firstItem.text}
          </p>
        </>
      ) : (
        <p className="mt-1 text-slate-600">The feed has no items yet.</p>
      )}
    </div>
  );
}

function AddFeedForm({ orgId, onDone }: { orgId: string; onDone: () => void }) {
  const create = useCreateFeed(orgId);
  const preview = usePreviewFeed(orgId);
  const integrations = useIntegrations(orgId);
  const [url, setUrl] = useState('');
  const [accounts, setAccounts] = useState<Set<string>>(new Set());
  const [destination, setDestination] = useState<FeedDestination>('draft');
  const [importLatest, setImportLatest] = useState(0);
  const [template, setTemplate] = useState(DEFAULT_FEED_TEMPLATE);
  const [error, setError] = useState<string | null>(null);
  const templateId = useId();
  const connected = (integrations.data ?? []).filter((i) => i.status === 'CONNECTED');

  const toggle = (id: string) =>
    setAccounts((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const showPreview = () => {
    if (!url.trim()) return setError('Give the address of the feed.');
    setError(null);
    preview.mutate(
      { url: url.trim(), template },
      { onError: (err) => setError(errorMessage(err, 'Failed to read the feed.')) },
    );
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!url.trim()) return setError('Give the address of the feed.');
    if (accounts.size === 0) return setError('Choose at least one account to post to.');
    setError(null);
    create.mutate(
      {
        url: url.trim(),
        integrationIds: [...accounts],
        destination,
        importLatest,
        template: template.trim() === DEFAULT_FEED_TEMPLATE ? null : template,
      },
      {
        onSuccess: (data) => {
          const made = data.check.posted;
          toast.success(
            made === 0
              ? 'Feed added. New items will become posts.'
              : `Feed added. ${made === 1 ? '1 post' : `${made} posts`} made from its latest items.`,
          );
          onDone();
        },
        onError: (err) => setError(errorMessage(err, 'Failed to add the feed.')),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label="Add a feed">
      <TextField
        label="Feed address"
        type="url"
        value={url}
        placeholder="https://example.com/feed.xml"
        autoComplete="off"
        onChange={(e) => setUrl(e.target.value)}
        error={error}
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Post to</legend>
        {integrations.isPending ? (
          <LoadingIndicator label="Loading the accounts" className="py-2" />
        ) : connected.length === 0 ? (
          <p className="text-sm text-slate-600">Connect an account first (below).</p>
        ) : (
          <div className="mt-1 grid gap-1 sm:grid-cols-2">
            {connected.map((account) => (
              <label key={account.id} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="size-4 rounded border-slate-300"
                  checked={accounts.has(account.id)}
                  onChange={() => toggle(account.id)}
                />
                <NetworkMark name={account.platform.name} size="sm" />
                <span className="truncate">
                  {account.metadata.name ?? account.metadata.username ?? account.platform.name}
                </span>
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-[2fr_1fr]">
        <SelectField
          label="New items go"
          value={destination}
          onChange={(e) => setDestination(e.target.value as FeedDestination)}
        >
          {DESTINATIONS.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Existing items to post now"
          type="number"
          min={0}
          max={FEED_IMPORT_LATEST_MAX}
          value={importLatest}
          hint="The others are only remembered."
          onChange={(e) =>
            setImportLatest(
              Math.max(0, Math.min(FEED_IMPORT_LATEST_MAX, Number(e.target.value) || 0)),
            )
          }
        />
      </div>
      <div>
        <label htmlFor={templateId} className="text-sm font-medium text-slate-900">
          Post text
        </label>
        <textarea
          id={templateId}
          value={template}
          rows={3}
          onChange={(e) => setTemplate(e.target.value)}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
        />
        <p className="mt-1 text-xs text-slate-500">
          Placeholders: {'{title}'}, {'{link}'}, {'{summary}'}, {'{author}'}, {'{feed}'}. Long texts
          are cut to each network&apos;s limit; links are never cut.
        </p>
      </div>
      {preview.data && <PreviewBox preview={preview.data} />}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button
          type="button"
          variant="secondary"
          disabled={preview.isPending}
          onClick={showPreview}
        >
          {preview.isPending && <Spinner className="size-4" />}
          Preview
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? (
            <Spinner className="size-4 text-white" />
          ) : (
            <Plus className="size-4" aria-hidden="true" />
          )}
          Add Feed
        </Button>
      </div>
    </form>
  );
}

function FeedItems({ orgId, feedId }: { orgId: string; feedId: string }) {
  const items = useFeedItems(orgId, feedId);
  if (items.isPending) return <LoadingIndicator label="Loading the items" className="py-3" />;
  if (items.isError) return <p className="text-sm text-red-700">Failed to load the items.</p>;
  if (items.data.length === 0) return <p className="mt-2 text-sm text-slate-600">No items yet.</p>;
  return (
    <ul className="mt-2 flex flex-col divide-y divide-slate-100 text-sm" aria-label="Feed items">
      {items.data.map((item) => (
        <li key={item.id} className="flex flex-col gap-0.5 py-1.5 sm:flex-row sm:justify-between">
          <span className="min-w-0 truncate text-slate-900">{item.title ?? item.link}</span>
          <span
            className={
              item.outcome === 'failed' ? 'text-xs text-red-700' : 'text-xs text-slate-500'
            }
          >
            {OUTCOME_WORDS[item.outcome]}
            {item.error ? `: ${item.error}` : ''}
            {item.outcome === 'failed'
              ? item.attempts < FEED_ITEM_MAX_ATTEMPTS
                ? ` (tried ${item.attempts} of ${FEED_ITEM_MAX_ATTEMPTS} times; tried again at the next check)`
                : ` (tried ${item.attempts} times; not tried again)`
              : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

function FeedRow({ orgId, feed }: { orgId: string; feed: Feed }) {
  const [open, setOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const update = useUpdateFeed(orgId);
  const remove = useDeleteFeed(orgId);
  const check = useCheckFeed(orgId);
  const status = feed.paused ? 'Paused' : feed.lastError ? 'Failing' : 'Active';
  return (
    <li className="rounded-lg border border-slate-200 p-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="flex items-center gap-2 font-medium text-slate-900">
            <Rss className="size-4 shrink-0 text-orange-500" aria-hidden="true" />
            <span className="truncate">{feed.title ?? feed.url}</span>
            <span
              className={
                status === 'Active'
                  ? 'rounded bg-emerald-50 px-1.5 text-xs text-emerald-800'
                  : status === 'Paused'
                    ? 'rounded bg-slate-100 px-1.5 text-xs text-slate-700'
                    : 'rounded bg-red-50 px-1.5 text-xs text-red-800'
              }
            >
              {status}
            </span>
          </p>
          <p className="font-mono text-xs break-all text-slate-500">{feed.url}</p>
          <p className="mt-1 text-xs text-slate-600">
            New items go {DESTINATION_WORDS[feed.destination]} · Last check{' '}
            {when(feed.lastCheckedAt)}
          </p>
          {feed.lastError && (
            <p className="mt-1 text-xs font-medium text-red-700">{feed.lastError}</p>
          )}
        </div>
        <div className="flex shrink-0 flex-wrap gap-1">
          <Button variant="secondary" size="sm" onClick={() => setOpen((v) => !v)}>
            {open ? 'Hide items' : 'Items'}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={check.isPending}
            onClick={() =>
              check.mutate(feed.id, {
                onSuccess: ({ check: result, feed: after }) =>
                  after.lastError
                    ? toast.error(after.lastError)
                    : toast.success(
                        result.posted > 0
                          ? `${result.posted === 1 ? '1 post' : `${result.posted} posts`} made.`
                          : 'No new items.',
                      ),
                onError: (err) => toastError(err, 'Failed to check the feed.'),
              })
            }
          >
            {check.isPending ? (
              <Spinner className="size-4" />
            ) : (
              <RefreshCw className="size-4" aria-hidden="true" />
            )}
            Check now
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { id: feed.id, paused: !feed.paused },
                { onError: (err) => toastError(err, 'Failed to change the feed.') },
              )
            }
          >
            {feed.paused ? (
              <Play className="size-4" aria-hidden="true" />
            ) : (
              <Pause className="size-4" aria-hidden="true" />
            )}
            {feed.paused ? 'Resume' : 'Pause'}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Remove ${feed.title ?? feed.url}`}
            onClick={() => setConfirmDelete(true)}
          >
            <Trash2 className="size-4" aria-hidden="true" />
          </Button>
        </div>
      </div>
      {open && <FeedItems orgId={orgId} feedId={feed.id} />}
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Remove this feed?"
        message="Herald stops reading it. The posts it made stay."
        confirmLabel="Remove Feed"
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(feed.id, {
            onSuccess: () => {
              setConfirmDelete(false);
              toast.success('Feed removed.');
            },
            onError: (err) => toastError(err, 'Failed to remove the feed.'),
          })
        }
      />
    </li>
  );
}

/**
 * docs/feeds.md (post:create): RSS, Atom and JSON feeds whose new items become posts, each with
 * its status, last check and last error in words; add, pause, resume, check now, remove.
 */
export function FeedsCard({ orgId }: { orgId: string }) {
  const headingId = useId();
  const feeds = useFeeds(orgId);
  const [adding, setAdding] = useState(false);
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Feeds
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Turn new items of an RSS, Atom or JSON feed (your blog, a newsletter) into posts: as drafts,
        into the posting queue, or for approval. Each item becomes one post, once.
      </p>
      <div className="mt-4 flex flex-col gap-4">
        {feeds.isPending ? (
          <LoadingIndicator label="Loading the feeds" className="py-6" />
        ) : feeds.isError ? (
          <p className="text-sm text-red-700">Failed to load the feeds.</p>
        ) : feeds.data.length > 0 ? (
          <ul className="flex flex-col gap-3" aria-label="Feeds">
            {feeds.data.map((feed) => (
              <FeedRow key={feed.id} orgId={orgId} feed={feed} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No feeds yet.</p>
        )}
        {adding ? (
          <AddFeedForm orgId={orgId} onDone={() => setAdding(false)} />
        ) : (
          <div>
            <Button variant="secondary" onClick={() => setAdding(true)}>
              <Plus className="size-4" aria-hidden="true" />
              Add Feed
            </Button>
          </div>
        )}
      </div>
    </section>
  );
}
