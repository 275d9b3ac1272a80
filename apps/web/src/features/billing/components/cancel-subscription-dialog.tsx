import type { Subscription } from '@herald/contract';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatDate } from './subscription-status';

function consequence(subscription: Subscription): string {
  const plan = subscription.plan.name;
  if (subscription.status === 'TRIALING') {
    return `Your free trial of ${plan} ends now, and this organization cannot start another one. Inviting and publishing stop until you subscribe.`;
  }
  if (subscription.status === 'ACTIVE') {
    const until = subscription.currentPeriodEnd
      ? `until ${formatDate(subscription.currentPeriodEnd)}`
      : 'until the end of the billing period';
    return `Your ${plan} plan stays active ${until}, then ends. You can subscribe again at any time.`;
  }
  return `Your ${plan} plan ends. You can subscribe again at any time.`;
}

/** Asks before cancelling: a trial ends at once, a paid plan at the end of its period. */
export function CancelSubscriptionDialog({
  subscription,
  open,
  onOpenChange,
  onConfirm,
  isPending,
}: {
  subscription: Subscription | null | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  isPending: boolean;
}) {
  return (
    <ConfirmDialog
      open={open && Boolean(subscription)}
      onOpenChange={onOpenChange}
      title="Cancel subscription?"
      message={subscription ? consequence(subscription) : ''}
      confirmLabel="Cancel subscription"
      cancelLabel="Keep plan"
      isPending={isPending}
      onConfirm={onConfirm}
    />
  );
}
