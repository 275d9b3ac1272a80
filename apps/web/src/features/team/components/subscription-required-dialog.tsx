import { ButtonLink, Button } from '@/components/ui/button';
import { Modal, ModalActions } from '@/components/ui/modal';
import { paths } from '@/config/paths';

export const SUBSCRIPTION_REQUIRED =
  'You need an active subscription to invite team members. Please subscribe to a plan to continue.';

/** Spec §8: inviting needs a plan; the overlay leads to the pricing page. */
export function SubscriptionRequiredDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Subscription Required"
      description={SUBSCRIPTION_REQUIRED}
      size="sm"
    >
      <ModalActions>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <ButtonLink to={paths.pricing}>View Plans</ButtonLink>
      </ModalActions>
    </Modal>
  );
}
