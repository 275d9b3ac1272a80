import { followUpLabel, type FollowUp } from '@herald/contract';
import { ExternalLink } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { useCan } from '@/lib/permissions';
import { useResolveFollowUp, useRetryFollowUps } from '../../api/publishing';

const pill = 'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-semibold';

function FollowUpState({
  item,
  network,
  waitsFor,
}: {
  item: FollowUp;
  network: string;
  /** The failed or unchecked part this one waits for, if any. */
  waitsFor: string | null;
}) {
  switch (item.status) {
    case 'PUBLISHED':
      return (
        <span className="flex flex-wrap items-center justify-end gap-2">
          <span className={cn(pill, 'bg-emerald-100 text-emerald-800')}>Published</span>
          {item.permalink && (
            <a
              href={item.permalink}
              target="_blank"
              rel="noreferrer"
              className="inline-flex items-center gap-1 text-xs font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              View on {network}
              <ExternalLink className="size-3" aria-hidden="true" />
            </a>
          )}
        </span>
      );
    case 'PUBLISHING':
      return (
        <span className={cn(pill, 'bg-amber-100 text-amber-900')}>
          <Spinner className="size-3 text-amber-700" />
          Publishing...
        </span>
      );
    case 'QUEUED':
      return (
        <span className={cn(pill, 'bg-slate-100 text-slate-700')}>
          {waitsFor ? `Waits for ${waitsFor.toLowerCase()}` : 'Waiting'}
        </span>
      );
    case 'FAILED':
      return <span className={cn(pill, 'bg-red-100 text-red-800')}>Failed</span>;
    case 'UNCERTAIN':
      return <span className={cn(pill, 'bg-yellow-100 text-yellow-900')}>Needs check</span>;
  }
}

/**
 * A publication's thread parts and first comment in the publish panel
 * (docs/product.md#threads-and-first-comments): each one's state and link, the reason of a
 * failure, Retry from the failed part, and Mark as published / Retry for an uncertain one.
 */
export function FollowUpList({
  orgId,
  postId,
  targetId,
  network,
  items,
  postIsOut,
}: {
  orgId: string;
  postId: string;
  targetId: string;
  network: string;
  items: FollowUp[];
  /** Whether the post itself is out on this account (parts follow it only then). */
  postIsOut: boolean;
}) {
  const mayRetry = useCan(
    'POST /organizations/:orgId/posts/:postId/targets/:targetId/follow-ups/retry',
  );
  const mayResolve = useCan(
    'POST /organizations/:orgId/posts/:postId/targets/:targetId/follow-ups/:followUpId/resolve',
  );
  const retry = useRetryFollowUps(orgId, postId);
  const resolve = useResolveFollowUp(orgId, postId);
  if (items.length === 0) return null;
  const partCount = items.filter((i) => i.kind === 'part').length + 1;
  const failed = items.find((i) => i.status === 'FAILED');
  const blocker = items.find((i) => i.status === 'FAILED' || i.status === 'UNCERTAIN');
  const blockerLabel = blocker ? followUpLabel(blocker, partCount) : null;
  const busy = retry.isPending || resolve.isPending;
  return (
    <div className="ml-6 rounded-lg bg-slate-50 px-3 py-2">
      <ul aria-label={`${network}: thread parts and first comment`} className="space-y-2">
        {items.map((item) => {
          const label = followUpLabel(item, partCount);
          return (
            <li key={item.id} aria-label={label} className="text-xs">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 font-medium text-slate-800">
                  {label}
                  <span
                    className="line-clamp-1 font-normal break-all text-slate-600"
                    title={item.text}
                  >
                    {item.text}
                  </span>
                </span>
                <span className="ml-auto">
                  {postIsOut || item.status !== 'QUEUED' ? (
                    <FollowUpState
                      item={item}
                      network={network}
                      waitsFor={blocker && blocker.position < item.position ? blockerLabel : null}
                    />
                  ) : (
                    <span className={cn(pill, 'bg-slate-100 text-slate-700')}>After the post</span>
                  )}
                </span>
              </div>
              {item.error && item.status !== 'PUBLISHED' && (
                <p className="mt-1 text-slate-700">{item.error}</p>
              )}
              {item.status === 'UNCERTAIN' && mayResolve && (
                <div className="mt-1 flex flex-wrap justify-end gap-2">
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={busy}
                    onClick={() =>
                      resolve.mutate({ targetId, followUpId: item.id, outcome: 'published' })
                    }
                  >
                    Mark as published
                  </Button>
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={busy}
                    onClick={() =>
                      resolve.mutate({ targetId, followUpId: item.id, outcome: 'retry' })
                    }
                  >
                    Retry
                  </Button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {failed && mayRetry && postIsOut && (
        <div className="mt-2 flex justify-end">
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() => retry.mutate(targetId)}
          >
            {retry.isPending && <Spinner className="size-3" />}
            {failed.kind === 'first_comment'
              ? 'Retry the first comment'
              : `Retry from part ${failed.position}`}
          </Button>
        </div>
      )}
    </div>
  );
}
