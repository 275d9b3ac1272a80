import { useEffect, useRef } from 'react';
import { generatePath } from 'react-router';
import { ButtonLink, Button } from '@/components/ui/button';
import { Modal, ModalActions } from '@/components/ui/modal';
import { NetworkMark } from '@/components/ui/network-mark';
import { pill, PublishedPill } from '@/components/ui/outcome-pill';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { quietPostNotifications } from '@/lib/notifications';
import { usePost } from '@/lib/posts';
import { toast } from '@/lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { postKeys } from '@/lib/posts';
import { progressOf, runningLineOf, summaryOf, type ProgressRow } from '../utils/publish-progress';

/**
 * While accounts are still publishing, the post is read again this often, in ms. The outcome
 * of each account normally arrives at once over the live event stream (an outcome notification
 * of the post refreshes it); this is the floor for when the stream is down.
 */
export const PROGRESS_FALLBACK_POLL_MS = 2_000;

/** docs/product.md#constants: the summary toast of a Publish now stays 6 seconds. */
export const SUMMARY_TOAST_MS = 6_000;

function RowState({ row }: { row: ProgressRow }) {
  const { state } = row;
  switch (state.kind) {
    case 'publishing':
      return (
        <span className={cn(pill, 'bg-amber-100 text-amber-900')}>
          <Spinner className="size-3 text-amber-700" />
          Publishing…
        </span>
      );
    case 'published':
      return (
        <PublishedPill network={row.network} permalink={state.permalink} inbox={state.inbox} />
      );
    case 'failed':
      return <span className={cn(pill, 'bg-red-100 text-red-800')}>Failed</span>;
    case 'uncertain':
      return <span className={cn(pill, 'bg-yellow-100 text-yellow-900')}>Needs check</span>;
    case 'retrying':
      return <span className={cn(pill, 'bg-blue-100 text-blue-800')}>Will retry</span>;
  }
}

function ProgressItem({ row }: { row: ProgressRow }) {
  const { state } = row;
  const problem = state.kind === 'publishing' || state.kind === 'published' ? null : state;
  return (
    <li aria-label={row.account ? `${row.network} ${row.account}` : row.network} className="py-2.5">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1.5">
        <span className="flex min-w-0 items-center gap-2 text-sm font-medium text-slate-900">
          <NetworkMark name={row.network} size="sm" />
          <span className="min-w-0">
            <span className="block">{row.network}</span>
            {row.account && (
              <span className="block text-xs font-normal break-all text-slate-600">
                {row.account}
              </span>
            )}
          </span>
        </span>
        <span className="ml-auto">
          <RowState row={row} />
        </span>
      </div>
      {/* The reason is read, not hovered: phones have no hover. */}
      {problem && (
        <div
          className={cn(
            'mt-2 rounded-lg p-2 text-xs',
            problem.kind === 'failed'
              ? 'bg-red-50 text-red-900'
              : problem.kind === 'retrying'
                ? 'bg-blue-50 text-blue-900'
                : 'bg-yellow-50 text-yellow-900',
          )}
        >
          <p>
            <span className="font-semibold">
              {problem.kind === 'failed'
                ? 'Failed: '
                : problem.kind === 'retrying'
                  ? 'Last try: '
                  : 'Needs check: '}
            </span>
            {problem.reason}
          </p>
          <p className="mt-1">{problem.todo}</p>
        </div>
      )}
    </li>
  );
}

interface PublishProgressProps {
  orgId: string;
  postId: string;
  onClose: () => void;
}

/**
 * docs/product.md#publish-now-progress: after Publish now, each account of the post with where it
 * stands, as it happens (Publishing… / Published with its link / Failed with the reason and what
 * to do), and one summary toast once every account is settled instead of one per account.
 */
export function PublishProgress({ orgId, postId, onClose }: PublishProgressProps) {
  const queryClient = useQueryClient();
  const post = usePost(orgId, postId);
  const progress = post.data ? progressOf(post.data) : null;
  const settled = progress?.settled ?? false;
  const unquiet = useRef<(() => void) | null>(null);
  const told = useRef(false);

  // Each account's outcome is told here, so the live stream does not toast it once more.
  useEffect(() => {
    unquiet.current = quietPostNotifications(postId);
    return () => {
      // Closed before the end: the accounts still publishing announce themselves as usual.
      if (!told.current) unquiet.current?.();
    };
  }, [postId]);

  // The floor under the live stream: read the post again while an account is publishing.
  useEffect(() => {
    if (settled) return;
    const timer = setInterval(() => {
      void queryClient.invalidateQueries({ queryKey: postKeys.detail(orgId, postId) });
    }, PROGRESS_FALLBACK_POLL_MS);
    return () => clearInterval(timer);
  }, [settled, orgId, postId, queryClient]);

  useEffect(() => {
    if (!progress?.settled || told.current) return;
    told.current = true;
    const { tone, text } = summaryOf(progress);
    const id = `publish-summary-${postId}`;
    // The one toast of the whole Publish now: it stays long enough to be read.
    const duration = SUMMARY_TOAST_MS;
    if (tone === 'success') toast.success(text, { id, duration });
    else if (tone === 'error') toast.error(text, { id, duration });
    else toast(text, { id, duration, icon: '⚠️' });
    // Everything the library shows about the post changed.
    void queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) });
  }, [progress, postId, orgId, queryClient]);

  const detailsHref = generatePath(paths.postDetails, { postId });

  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={settled ? 'Publishing finished' : 'Publishing now'}
      description={
        progress ? (
          <span aria-live="polite">
            {settled ? summaryOf(progress).text : runningLineOf(progress)}
          </span>
        ) : (
          'Sending your post to its accounts…'
        )
      }
    >
      {progress ? (
        <ul aria-label="Accounts it is published to" className="divide-y divide-slate-100">
          {progress.rows.map((row) => (
            <ProgressItem key={row.id} row={row} />
          ))}
        </ul>
      ) : post.error ? (
        <p role="alert" className="text-sm text-red-800">
          Herald could not read how publishing goes. Open the post to see each account.
        </p>
      ) : (
        <Spinner className="mx-auto size-6 text-indigo-600" />
      )}
      <ModalActions>
        <ButtonLink variant="secondary" to={detailsHref}>
          Open the post
        </ButtonLink>
        <Button onClick={onClose}>{settled ? 'Done' : 'Close'}</Button>
      </ModalActions>
    </Modal>
  );
}
