import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Modal, ModalActions } from '@/components/ui/modal';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { toast, toastError } from '@/lib/toast';
import { useChooseAccounts, usePendingConnection } from '../api/connections';

export const PENDING_LOAD_FAILED = 'Could not load the accounts to choose from. Connect again.';

interface AccountPickerDialogProps {
  orgId: string;
  /** The choice the network's sign-in left on the server; null when the dialog is closed. */
  pendingId: string | null;
  /** The network's name from the return URL, until the choice itself has loaded. */
  platformName: string;
  onClose: () => void;
}

/**
 * One sign-in can offer several accounts (Facebook Pages, Instagram business accounts,
 * LinkedIn Pages): the member ticks the ones to connect. An account the network does not let
 * Herald post to (a Page without CREATE_CONTENT) is shown disabled, with the reason.
 */
export function AccountPickerDialog({
  orgId,
  pendingId,
  platformName,
  onClose,
}: AccountPickerDialogProps) {
  const pending = usePendingConnection(orgId, pendingId);
  const choose = useChooseAccounts(orgId);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const platform = pending.data?.platform.name ?? platformName;
  const accounts = pending.data?.accounts ?? [];

  const close = () => {
    setChosen(new Set());
    onClose();
  };

  const toggle = (externalId: string) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (next.has(externalId)) next.delete(externalId);
      else next.add(externalId);
      return next;
    });

  const onConfirm = () => {
    if (!pendingId || chosen.size === 0) return;
    choose.mutate(
      { pendingId, externalIds: [...chosen] },
      {
        onSuccess: () => {
          toast.success(
            chosen.size === 1
              ? `${platform} connected successfully.`
              : `${chosen.size} ${platform} accounts connected successfully.`,
          );
          close();
        },
        onError: (error) => toastError(error, `Failed to connect ${platform}. Please try again.`),
      },
    );
  };

  return (
    <Modal
      open={pendingId !== null}
      onOpenChange={(open) => !open && !choose.isPending && close()}
      title={`Choose ${platform} accounts`}
      description={`Your ${platform} sign-in gives access to several accounts. Tick the ones Herald should connect.`}
    >
      {pending.isPending && <LoadingIndicator label="Loading accounts" className="py-8" />}
      {pending.error && <Alert>{errorMessage(pending.error, PENDING_LOAD_FAILED)}</Alert>}
      {pending.data && accounts.length === 0 && (
        <p className="text-sm text-slate-600">This sign-in offers no account to connect.</p>
      )}
      {accounts.length > 0 && (
        <fieldset>
          <legend className="sr-only">{`${platform} accounts`}</legend>
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
            {accounts.map((account) => {
              const name = account.name?.trim() || account.username || account.externalId;
              const reason = account.unavailableReason ?? null;
              const reasonId = `unavailable-${account.externalId}`;
              return (
                <li key={account.externalId}>
                  <label
                    className={
                      reason
                        ? 'flex cursor-not-allowed items-center gap-3 p-3 opacity-90'
                        : 'flex cursor-pointer items-center gap-3 p-3 hover:bg-slate-50'
                    }
                  >
                    <input
                      type="checkbox"
                      checked={chosen.has(account.externalId)}
                      onChange={() => toggle(account.externalId)}
                      disabled={reason !== null}
                      aria-describedby={reason ? reasonId : undefined}
                      className="size-4 accent-indigo-600"
                    />
                    <Avatar name={name} url={account.pictureUrl} className="size-8 text-xs" />
                    <span className="min-w-0">
                      <span className="block truncate font-medium text-slate-900">{name}</span>
                      {account.username && (
                        <span className="block truncate text-sm text-slate-600">
                          @{account.username.replace(/^@/, '')}
                        </span>
                      )}
                      {reason && (
                        <span id={reasonId} className="block text-sm text-amber-900">
                          Not connectable: {reason}
                        </span>
                      )}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
      )}
      <ModalActions>
        <Button variant="secondary" onClick={close} disabled={choose.isPending}>
          Cancel
        </Button>
        <Button onClick={onConfirm} disabled={chosen.size === 0 || choose.isPending}>
          {choose.isPending && <Spinner className="size-4 text-white" />}
          Connect selected
        </Button>
      </ModalActions>
    </Modal>
  );
}
