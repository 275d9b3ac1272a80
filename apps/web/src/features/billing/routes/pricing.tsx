import { TRIAL_DAYS } from '@herald/contract';
import { CalendarCheck, CircleX } from 'lucide-react';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useAuth } from '@/lib/auth';
import { quietNextNotification } from '@/lib/notifications';
import { toast } from '@/lib/toast';
import { useSubscriptionChanged } from '../api/subscription';
import { PricingBoard } from '../components/pricing-board';

export const NO_ORGANIZATION = 'Please select an organization to view pricing plans.';
export const CHECKOUT_CANCELLED = 'Checkout cancelled. No payment was taken.';

/**
 * Stripe Checkout sends the browser back to /pricing?checkout=success|cancelled: say how it
 * went once, refresh the subscription, and drop the parameter so a reload does not repeat it.
 */
function useCheckoutReturn(orgId: string) {
  const [searchParams, setSearchParams] = useSearchParams();
  const subscriptionChanged = useSubscriptionChanged(orgId);
  const checkout = searchParams.get('checkout');

  useEffect(() => {
    if (!checkout) return;
    if (checkout === 'success') {
      // Stripe's webhook may announce the same subscription meanwhile: one toast is enough.
      quietNextNotification('SUBSCRIPTION_UPDATE');
      toast.success('Subscription initiated!', { id: 'checkout-return' });
      void subscriptionChanged();
    } else if (checkout === 'cancelled') {
      toast(CHECKOUT_CANCELLED, { id: 'checkout-return' });
    }
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.delete('checkout');
        return next;
      },
      { replace: true },
    );
  }, [checkout, subscriptionChanged, setSearchParams]);
}

/** /pricing (docs/product.md#pricing): plans, the organization's subscription, trial, subscribe and cancel. */
export function PricingPage() {
  const { currentOrgId } = useAuth();
  useCheckoutReturn(currentOrgId ?? '');

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8">
      <title>Pricing · Herald</title>
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          Simple, transparent pricing
        </h1>
        <p className="mt-3 text-lg text-slate-600">
          Try any plan free for {TRIAL_DAYS} days. No credit card required — pick the plan that fits
          your team when you are ready.
        </p>
      </header>

      {currentOrgId ? (
        <PricingBoard orgId={currentOrgId} />
      ) : (
        <p className="rounded-xl bg-slate-50 p-6 text-center text-slate-700">{NO_ORGANIZATION}</p>
      )}

      <footer className="flex flex-wrap justify-center gap-x-8 gap-y-2 border-t border-slate-200 pt-6 text-sm text-slate-600">
        <span className="flex items-center gap-2">
          <CalendarCheck className="size-4 text-indigo-600" aria-hidden="true" />
          {TRIAL_DAYS}-day free trial
        </span>
        <span className="flex items-center gap-2">
          <CircleX className="size-4 text-indigo-600" aria-hidden="true" />
          Cancel anytime
        </span>
      </footer>
    </div>
  );
}
