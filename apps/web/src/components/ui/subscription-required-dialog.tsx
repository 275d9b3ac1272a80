import { paths } from '@/config/paths';
import { Button, ButtonLink } from './button';
import { Modal, ModalActions } from './modal';

/**
 * docs/product.md#messages: an action that needs a plan (creating a post, inviting a member) was refused; says
 * why and leads to the plans. `dismissLabel` keeps each screen's wording (Close or Cancel).
 */
export function SubscriptionRequiredDialog({
  open,
  onOpenChange,
  message,
  dismissLabel = 'Close',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  message: string;
  dismissLabel?: 'Close' | 'Cancel';
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Subscription Required"
      description={message}
      size="sm"
    >
      <ModalActions>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          {dismissLabel}
        </Button>
        <ButtonLink to={paths.pricing}>View Plans</ButtonLink>
      </ModalActions>
    </Modal>
  );
}
