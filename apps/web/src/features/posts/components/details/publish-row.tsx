import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { NetworkMark } from '@/components/ui/network-mark';
import { pill, PublishedPill } from '@/components/ui/outcome-pill';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { useTimeZone } from '@/lib/use-time-zone';
import { formatPostDate } from '../post-dates';
import type { PublishRow, RowState } from './publish-rows';
import { FollowUpList } from './follow-up-list';

const nameClass = 'flex min-w-0 items-center gap-2 text-sm font-medium text-slate-900';

/** "Name (@handle)", or whichever of the two the account has. */
function accountText(row: PublishRow): string | null {
  const { name, username } = row.account ?? { name: null, username: null };
  const handle = username ? `@${username}` : null;
  if (name && handle && name !== username) return `${name} (${handle})`;
  return name ?? handle;
}

/** The network's name, and under it the account, cut short with the full text on hover. */
function NameAndAccount({ network, account }: { network: string; account: string | null }) {
  return (
    <span className="min-w-0">
      <span className="block">{network}</span>
      {account && (
        <span className="line-clamp-1 text-xs break-all font-normal text-slate-600" title={account}>
          {account}
        </span>
      )}
    </span>
  );
}

function StatePill({
  state,
  platformName,
  zone,
}: {
  state: RowState;
  platformName: string;
  /** The reader's time zone (useTimeZone) for "Queued for {time}". */
  zone: string;
}) {
  switch (state.kind) {
    case 'published':
      return (
        <PublishedPill network={platformName} permalink={state.permalink} inbox={state.inbox} />
      );
    case 'publishing':
      return (
        <span className={cn(pill, 'bg-amber-100 text-amber-900')}>
          <Spinner className="size-3 text-amber-700" />
          Publishing...
        </span>
      );
    case 'queued':
      return (
        <span className={cn(pill, 'bg-blue-100 whitespace-nowrap text-blue-800')}>
          Queued for {formatPostDate(state.dueAt, zone)}
        </span>
      );
    case 'uploaded':
      return (
        <span className={cn(pill, 'bg-emerald-50 whitespace-nowrap text-emerald-900')}>
          Uploaded
        </span>
      );
    case 'failed':
      return <span className={cn(pill, 'bg-red-100 text-red-800')}>Failed</span>;
    case 'uncertain':
      return (
        <span
          className={cn(pill, 'cursor-help bg-yellow-100 text-yellow-900')}
          title={state.error ?? undefined}
        >
          Needs check
        </span>
      );
    case 'idle':
      return null;
  }
}

export interface PublishRowProps {
  row: PublishRow;
  /** Whether the row offers its checkbox (unpublished posts, for members who may publish). */
  showCheckbox: boolean;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** Where Connect goes; null when the member may not connect accounts. */
  connectHref: string | null;
  /** Whether Mark as published and Retry are offered on an uncertain row. */
  mayResolve: boolean;
  /** Whether a failed row offers Retry (when Publish Now is not there to retry it). */
  retryFailed: boolean;
  /** The publication whose resolution is being sent, if any. */
  resolvingTargetId: string | null;
  onResolve: (targetId: string, outcome: 'published' | 'retry') => void;
  /** The organization and post, for the row's thread parts and first comment. */
  orgId?: string;
  postId?: string;
}

/** One network of the post in the Publish to Platform panel. */
export function PublishRowItem({
  row,
  showCheckbox,
  checked,
  onCheckedChange,
  connectHref,
  mayResolve,
  retryFailed,
  resolvingTargetId,
  onResolve,
  orgId,
  postId,
}: PublishRowProps) {
  const checkboxId = useId();
  const zone = useTimeZone();
  const { platform, state } = row;
  const account = accountText(row);
  const locked = state.kind === 'published';
  const busy = state.kind === 'publishing';
  const disconnected = row.connected === false && !locked && !busy;
  const resolveTarget =
    mayResolve &&
    (state.kind === 'uncertain' || (state.kind === 'failed' && retryFailed)) &&
    state.targetId
      ? state.targetId
      : null;
  const isResolving = resolveTarget !== null && resolvingTargetId === resolveTarget;
  // A network without an account shows Connect instead of a choice.
  const hasCheckbox = showCheckbox && !disconnected;

  return (
    <li aria-label={row.label} className="flex flex-col gap-2 py-2.5">
      {/* A long state ("Queued for {time}") goes under the name rather than squeezing it. */}
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1.5">
        <span className="flex min-w-0 items-center gap-2">
          {hasCheckbox && (
            <input
              id={checkboxId}
              type="checkbox"
              aria-label={`Publish to ${row.label}`}
              checked={locked || checked}
              disabled={!row.selectable}
              onChange={(event) => onCheckedChange(event.target.checked)}
              className="size-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed"
            />
          )}
          {hasCheckbox ? (
            <label htmlFor={checkboxId} className={nameClass}>
              <NetworkMark name={platform.name} label="name" size="sm" />
              <NameAndAccount network={platform.name} account={account} />
            </label>
          ) : (
            <span className={nameClass}>
              <NetworkMark name={platform.name} label="name" size="sm" />
              <NameAndAccount network={platform.name} account={account} />
            </span>
          )}
        </span>
        <span className="flex flex-wrap items-center justify-end gap-2 ml-auto">
          <StatePill state={state} platformName={platform.name} zone={zone} />
          {state.kind === 'idle' && row.connected === true && (
            <span className={cn(pill, 'bg-slate-100 text-slate-700')}>Connected</span>
          )}
          {disconnected &&
            (connectHref ? (
              <a
                href={connectHref}
                className="rounded-md border border-slate-300 px-2 py-0.5 text-xs font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                Connect
              </a>
            ) : (
              <span className={cn(pill, 'bg-slate-100 text-slate-700')}>Not connected</span>
            ))}
        </span>
      </div>
      {/* The reason is read under the row, not hovered: phones have no hover. */}
      {state.kind === 'failed' && (
        <p className="text-xs text-red-800">
          <span className="font-semibold">Failed: </span>
          {state.error}
        </p>
      )}
      {/* What was uploaded ahead waits at the network; a problem since replaces the note. */}
      {state.kind === 'uploaded' &&
        (state.error ? (
          <p className="text-xs text-red-800">{state.error}</p>
        ) : (
          <p className="text-xs text-slate-700">
            <span className="font-semibold">
              {platform.name} publishes it at {formatPostDate(state.dueAt, zone)}.
            </span>{' '}
            The video is there already, private until then; changes to the post follow it.
          </p>
        ))}
      {state.kind === 'uncertain' && (
        <p className="text-xs text-slate-700">
          {state.error ??
            `Herald could not confirm whether ${platform.name} published it. Check there, then say what happened.`}
        </p>
      )}
      {resolveTarget && (
        <div className="flex flex-wrap justify-end gap-2">
          {/* The reason is read under the row, not hovered: phones have no hover. */}
          {state.kind === 'failed' && (
            <p className="text-xs text-red-800">
              <span className="font-semibold">Failed: </span>
              {state.error}
            </p>
          )}
          {state.kind === 'uncertain' && (
            <Button
              variant="secondary"
              size="sm"
              disabled={isResolving}
              onClick={() => onResolve(resolveTarget, 'published')}
            >
              Mark as published
            </Button>
          )}
          <Button
            variant="secondary"
            size="sm"
            disabled={isResolving}
            onClick={() => onResolve(resolveTarget, 'retry')}
          >
            {isResolving && <Spinner className="size-3" />}
            Retry
          </Button>
        </div>
      )}
      {orgId && postId && row.targetId && row.followUps && row.followUps.length > 0 && (
        <FollowUpList
          orgId={orgId}
          postId={postId}
          targetId={row.targetId}
          network={platform.name}
          items={row.followUps}
          postIsOut={state.kind === 'published'}
        />
      )}
    </li>
  );
}
