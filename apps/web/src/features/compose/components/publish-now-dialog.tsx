import { Send } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Modal, ModalActions } from '@/components/ui/modal';
import { NetworkMark } from '@/components/ui/network-mark';
import type { ComposeAccount, ComposePlatform } from '../utils/compose-platforms';

/** "Name (@handle)", or whichever of the two the account has. */
export function accountLabel(account: ComposeAccount): string {
  if (!account.username) return account.name;
  const handle = `@${account.username}`;
  return account.name === account.username ? handle : `${account.name} (${handle})`;
}

interface PublishNowDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The selected networks, each with the accounts the post goes out as. */
  platforms: readonly ComposePlatform[];
  onConfirm: () => void;
}

/** Publish now cannot be taken back: it names every account the post goes to before sending. */
export function PublishNowDialog({
  open,
  onOpenChange,
  platforms,
  onConfirm,
}: PublishNowDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Publish now?"
      description="The post goes out right away to these accounts:"
    >
      <ul aria-label="Accounts it goes to" className="flex flex-col gap-2">
        {platforms.flatMap((platform) =>
          platform.accounts.map((account, index) => (
            <li
              key={`${platform.id}-${index}`}
              className="flex min-w-0 items-center gap-3 rounded-lg border border-slate-200 p-2 text-sm"
            >
              <NetworkMark name={platform.name} />
              <span className="min-w-0 flex-1">
                <span className="block font-semibold text-slate-900">{platform.name}</span>
                <span className="block truncate text-slate-700" title={accountLabel(account)}>
                  {accountLabel(account)}
                </span>
              </span>
            </li>
          )),
        )}
      </ul>
      <ModalActions>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button onClick={onConfirm}>
          <Send className="size-4" aria-hidden="true" />
          Publish now
        </Button>
      </ModalActions>
    </Modal>
  );
}
