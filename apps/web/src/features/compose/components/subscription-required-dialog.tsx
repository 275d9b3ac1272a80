import { Button, ButtonLink } from '@/components/ui/button';
import { Modal, ModalActions } from '@/components/ui/modal';
import { paths } from '@/config/paths';

/** Spec §8: creating a post without a plan; says the server's sentence and leads to the plans. */
export function SubscriptionRequiredDialog({
  open,
  onOpenChange,
  message,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  message: string;
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
          Close
        </Button>
        <ButtonLink to={paths.pricing}>View Plans</ButtonLink>
      </ModalActions>
    </Modal>
  );
}
