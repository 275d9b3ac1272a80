import type { Post } from '@herald/contract';
import {
  CalendarClock,
  Check,
  Copy,
  FilePen,
  ListPlus,
  ThumbsDown,
  Trash2,
  X,
  type LucideIcon,
} from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { isTimePassed } from '@/lib/approvals';
import { cn } from '@/lib/cn';
import { usePermissions } from '@/lib/permissions';
import { toast, toastError } from '@/lib/toast';
import { BulkRejectDialog } from './bulk-reject-dialog';
import { anyWaiting, bulkReason, type BulkActionName } from './bulk-rules';
import { RescheduleDialog, type RescheduleChoice } from './reschedule-dialog';
import { BULK_TOAST, postsCount, refusalOf, useBulkActions } from './use-bulk-actions';

/** The confirmations the bar asks: what each says and its button. */
const CONFIRM = {
  delete: {
    title: (n: number) => `Delete ${postsCount(n)}?`,
    message: (n: number) =>
      `${n === 1 ? 'The selected post' : `The ${n} selected posts`} will be deleted with ${n === 1 ? 'its' : 'their'} media and will not be published. This cannot be undone.`,
    confirm: 'Delete',
    variant: 'danger',
  },
  draft: {
    title: (n: number) => `Move ${postsCount(n)} to draft?`,
    message: (n: number) =>
      `${n === 1 ? 'The selected post' : `The ${n} selected posts`} will not be published until you schedule ${n === 1 ? 'it' : 'them'} again.`,
    confirm: 'Move to draft',
    variant: 'danger',
  },
  approve: {
    title: (n: number) => `Approve ${postsCount(n)}?`,
    message: (n: number) =>
      `${n === 1 ? 'It is' : 'They are'} scheduled for ${n === 1 ? 'its time' : 'their times'} and ${n === 1 ? 'its author is' : 'their authors are'} told.`,
    confirm: 'Approve',
    variant: 'primary',
  },
} as const;

type Asking =
  | { kind: 'delete' | 'draft' | 'approve' }
  | { kind: 'publish-now'; message: string }
  | { kind: 'reschedule' }
  | { kind: 'reject' };

/**
 * One action of the bar. An action the selection cannot take stays in its place, looking off,
 * and says why: read with the button, shown on hover, and as a toast when pressed.
 */
function BulkButton({
  label,
  icon: Icon,
  reason,
  onClick,
  variant = 'secondary',
  disabled,
}: {
  label: string;
  icon: LucideIcon;
  reason: string | null;
  onClick: () => void;
  variant?: 'secondary' | 'danger';
  disabled: boolean;
}) {
  const reasonId = useId();
  return (
    <>
      <Button
        variant={variant}
        size="sm"
        disabled={disabled}
        aria-disabled={reason ? true : undefined}
        aria-describedby={reason ? reasonId : undefined}
        title={reason ?? undefined}
        className={cn(reason && 'cursor-not-allowed opacity-50')}
        onClick={() => (reason ? toast(reason, { id: 'bulk-reason' }) : onClick())}
      >
        <Icon className="size-4" aria-hidden="true" />
        {label}
      </Button>
      {reason && (
        <span id={reasonId} className="sr-only">
          {reason}
        </span>
      )}
    </>
  );
}

/**
 * What can be done with the chosen posts (docs/product.md#bulk-actions), kept in view under the
 * top bar while the posts scroll: Reschedule, Add to
 * queue, Duplicate, Approve and Reject (while some chosen post waits for approval), Move to
 * draft and Delete — each shown only to members whose role allows it, and said to be off, with
 * why, when the selection cannot take it. The server takes all of the posts or none and says
 * why; its sentence is shown.
 */
export function BulkBar({
  orgId,
  selected,
  zone,
  onDone,
}: {
  orgId: string;
  selected: readonly Post[];
  zone: string;
  onDone: () => void;
}) {
  const { canCall } = usePermissions();
  const actions = useBulkActions(orgId, zone, onDone);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const count = selected.length;
  if (count === 0) return null;

  const may = {
    reschedule: canCall('POST /organizations/:orgId/posts/bulk/reschedule'),
    queue: canCall('POST /organizations/:orgId/posts/bulk/queue'),
    duplicate: canCall('POST /organizations/:orgId/posts/bulk/duplicate'),
    approve: canCall('POST /organizations/:orgId/posts/bulk/approve'),
    reject: canCall('POST /organizations/:orgId/posts/bulk/reject'),
    draft: canCall('POST /organizations/:orgId/posts/bulk/draft'),
    delete: canCall('POST /organizations/:orgId/posts/bulk/delete'),
  } satisfies Record<BulkActionName, boolean>;
  const decides = anyWaiting(selected);

  const close = () => {
    setAsking(null);
    setDialogError(null);
  };

  /** Runs an action from a dialog: the dialog shows the server's refusal and stays open. */
  const fromDialog = (run: () => Promise<void>) => {
    setDialogError(null);
    run().then(close, (error: unknown) => setDialogError(refusalOf(error)));
  };

  /** Runs an action from a confirmation or the bar: the refusal is one toast. */
  const withToast = (run: () => Promise<void>) => {
    run().then(close, (error: unknown) => {
      toastError(error, 'The posts could not be changed. Try again.', BULK_TOAST);
      close();
    });
  };

  const approve = (publishNow: boolean) => {
    actions.approve(selected, publishNow).then(close, (error: unknown) => {
      if (!publishNow && isTimePassed(error)) {
        setAsking({ kind: 'publish-now', message: refusalOf(error) });
        return;
      }
      toastError(error, 'The posts could not be approved. Try again.', BULK_TOAST);
      close();
    });
  };

  const button = (
    action: BulkActionName,
    label: string,
    icon: LucideIcon,
    onClick: () => void,
    variant?: 'danger',
  ) =>
    may[action] && (
      <BulkButton
        label={label}
        icon={icon}
        reason={bulkReason(action, selected)}
        onClick={onClick}
        variant={variant}
        disabled={actions.isPending}
      />
    );

  const confirmation =
    asking && (asking.kind === 'delete' || asking.kind === 'draft' || asking.kind === 'approve')
      ? CONFIRM[asking.kind]
      : null;

  return (
    <div
      role="toolbar"
      aria-label="Selected posts"
      className="sticky top-[4.5rem] z-20 flex flex-col gap-2 rounded-xl border border-indigo-200 bg-indigo-50 px-3 py-2 shadow-sm lg:flex-row lg:items-center"
    >
      <div className="flex items-center justify-between gap-2 lg:mr-auto">
        <p className="text-sm font-medium whitespace-nowrap text-indigo-900" aria-live="polite">
          {postsCount(count)} selected
        </p>
        <Button variant="ghost" size="sm" onClick={onDone} aria-label="Clear selection">
          <X className="size-4" aria-hidden="true" />
          Clear
        </Button>
      </div>
      <div className="flex flex-wrap items-center gap-2 lg:justify-end">
        {button('reschedule', 'Reschedule', CalendarClock, () => setAsking({ kind: 'reschedule' }))}
        {button('queue', 'Add to queue', ListPlus, () => withToast(() => actions.queue(selected)))}
        {button('duplicate', 'Duplicate', Copy, () => withToast(() => actions.copy(selected)))}
        {decides && button('approve', 'Approve', Check, () => setAsking({ kind: 'approve' }))}
        {decides && button('reject', 'Reject', ThumbsDown, () => setAsking({ kind: 'reject' }))}
        {button('draft', 'Move to draft', FilePen, () => setAsking({ kind: 'draft' }))}
        {button('delete', 'Delete', Trash2, () => setAsking({ kind: 'delete' }), 'danger')}
      </div>

      {confirmation && asking && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && !actions.isPending && close()}
          title={confirmation.title(count)}
          message={confirmation.message(count)}
          confirmLabel={confirmation.confirm}
          confirmVariant={confirmation.variant}
          isPending={actions.isPending}
          onConfirm={() => {
            if (asking.kind === 'approve') approve(false);
            else {
              const kind = asking.kind as 'delete' | 'draft';
              withToast(() => actions.simpleAction(kind, selected));
            }
          }}
        />
      )}
      {asking?.kind === 'publish-now' && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && !actions.isPending && close()}
          title="Publish the late ones now?"
          message={asking.message}
          confirmLabel="Approve and publish now"
          confirmVariant="primary"
          isPending={actions.isPending}
          onConfirm={() => approve(true)}
        />
      )}
      {asking?.kind === 'reschedule' && (
        <RescheduleDialog
          open
          selected={selected}
          zone={zone}
          isPending={actions.isPending}
          error={dialogError}
          onClose={close}
          onSubmit={(choice: RescheduleChoice) =>
            fromDialog(() => actions.reschedule(selected, choice))
          }
        />
      )}
      {asking?.kind === 'reject' && (
        <BulkRejectDialog
          count={count}
          isPending={actions.isPending}
          error={dialogError}
          onClose={close}
          onSubmit={(reason) => fromDialog(() => actions.reject(selected, reason))}
        />
      )}
    </div>
  );
}
