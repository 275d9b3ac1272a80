import { Button, ButtonLink } from '@/components/ui/button';
import { Modal, ModalActions } from '@/components/ui/modal';
import { paths } from '@/config/paths';

interface ActionRequiredModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The sentence that says what stands in the way (often the server's). */
  message: string;
  /** The way out; 'Upgrade Now' to the pricing page unless said otherwise. */
  actionLabel?: string;
  actionTo?: string;
}

/** Reusable 'Action Required' modal (docs/product.md#create-post): Close, and one configurable action. */
export function ActionRequiredModal({
  open,
  onOpenChange,
  message,
  actionLabel = 'Upgrade Now',
  actionTo = paths.pricing,
}: ActionRequiredModalProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Action Required"
      description={message}
      size="sm"
    >
      <ModalActions>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Close
        </Button>
        <ButtonLink to={actionTo}>{actionLabel}</ButtonLink>
      </ModalActions>
    </Modal>
  );
}
