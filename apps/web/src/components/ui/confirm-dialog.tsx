import { Button } from './button';
import { Modal, ModalActions } from './modal';
import { Spinner } from './spinner';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  message: string;
  confirmLabel: string;
  /** The button that dismisses; say what staying means when "Cancel" would be ambiguous. */
  cancelLabel?: string;
  onConfirm: () => void;
  isPending?: boolean;
  /** 'danger' (red) for what cannot be undone; 'primary' for a confirmation that is not a loss. */
  confirmVariant?: 'danger' | 'primary';
}

/** Asks before something that cannot be undone (remove, delete, leave) or is used only once. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  isPending = false,
  confirmVariant = 'danger',
}: ConfirmDialogProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title} description={message} size="sm">
      <ModalActions>
        <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={isPending}>
          {cancelLabel}
        </Button>
        <Button variant={confirmVariant} onClick={onConfirm} disabled={isPending}>
          {isPending && <Spinner className="size-4 text-white" />}
          {confirmLabel}
        </Button>
      </ModalActions>
    </Modal>
  );
}
