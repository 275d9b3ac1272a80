import { TRIAL_DAYS, type Plan } from '@herald/contract';
import { Info } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { goToExternal } from '@/lib/browser';
import { useCan } from '@/lib/permissions';
import { usePlans } from '@/lib/plans';
import { toast, toastError } from '@/lib/toast';
import {
  useBillingConfig,
  useBillingGroup,
  useBillingPortal,
  useCancelSubscription,
  useMemberCount,
  useOpenOrganization,
  useStartTrial,
  useSubscribe,
  useSubscription,
} from '../api/subscription';
import { BillingGroupPanel } from './billing-group-panel';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog';
import { PricingPlanCard, type PlanAction } from './pricing-plan-card';
import { SubscriptionBanner } from './subscription-banner';
import { formatDate, isCancellable, planState } from './subscription-status';

export const PRICING_LOAD_FAILED =
  'Failed to load pricing information. Please refresh to try again.';
export const SUBSCRIPTION_LOAD_FAILED = 'Could not refresh subscription status.';
export const NO_PLANS = 'No pricing plans available at the moment.';
export const SELF_HOSTED_NOTE =
  'Self-hosted billing: subscribing activates the plan immediately, no payment is taken.';
export const READ_ONLY_NOTE =
  'Only members who may manage the subscription can change the plan. Ask an organization admin.';
/** docs/product.md#billing-groups: what a covered organization's members are told. */
export const coveredNote = (payer: string) =>
  `${payer} pays for this plan: only its owner changes it, from ${payer}'s pricing page.`;
export const openPayerLabel = (payer: string) => `Open ${payer} billing`;

/** The organization's subscription and the plans it can move to (docs/product.md#pricing). */
export function PricingBoard({ orgId }: { orgId: string }) {
  const plans = usePlans();
  const subscription = useSubscription(orgId);
  const memberCount = useMemberCount(orgId);
  const config = useBillingConfig();
  const startTrial = useStartTrial(orgId);
  const subscribe = useSubscribe(orgId);
  const cancel = useCancelSubscription(orgId);
  const portal = useBillingPortal(orgId);
  const canTrial = useCan('POST /organizations/:orgId/subscribe/trial');
  const canSubscribe = useCan('POST /organizations/:orgId/subscription/subscribe');
  const canCancel = useCan('POST /organizations/:orgId/subscription/cancel');
  const canPortal = useCan('POST /organizations/:orgId/billing/portal');
  const canViewGroup = useCan('GET /organizations/:orgId/billing/group');
  const canChoose = useCan('PUT /organizations/:orgId/billing/group');
  const group = useBillingGroup(orgId, canViewGroup);
  const openOrganization = useOpenOrganization();
  const [confirming, setConfirming] = useState(false);
  // The plan whose free trial waits for the user's confirmation.
  const [trialFor, setTrialFor] = useState<Plan | null>(null);
  // The browser is on its way to Stripe: nothing else may start meanwhile.
  const [leaving, setLeaving] = useState(false);

  const current = subscription.data;
  // Another organization pays: nothing here changes the plan (docs/product.md#billing-groups).
  const coveredBy = current?.coveredBy ?? null;
  const busy =
    current === undefined ||
    leaving ||
    startTrial.isPending ||
    subscribe.isPending ||
    cancel.isPending ||
    portal.isPending ||
    openOrganization.isPending;

  const pendingFor = (plan: Plan): PlanAction | null => {
    if (startTrial.isPending && startTrial.variables === plan.id) return 'trial';
    if ((subscribe.isPending || leaving) && subscribe.variables === plan.id) return 'subscribe';
    return null;
  };

  const onConfirmTrial = (plan: Plan) =>
    startTrial.mutate(plan.id, {
      onSuccess: () => toast.success('Free trial started successfully!'),
      onError: (error) => toastError(error, 'Failed to start trial'),
      onSettled: () => setTrialFor(null),
    });

  const onAction = (action: PlanAction, plan: Plan) => {
    if (action === 'trial') {
      setTrialFor(plan);
    } else {
      subscribe.mutate(plan.id, {
        onSuccess: ({ checkoutUrl }) => {
          if (checkoutUrl) {
            setLeaving(true);
            goToExternal(checkoutUrl);
            return;
          }
          toast.success('Subscription initiated!');
        },
        onError: (error) => toastError(error, 'Payment failed'),
      });
    }
  };

  const onConfirmCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: () => toast.success('Subscription cancelled'),
      onError: (error) => toastError(error, 'Failed to cancel subscription'),
      onSettled: () => setConfirming(false),
    });

  const openPortal = () =>
    portal.mutate(undefined, {
      onSuccess: (url) => {
        setLeaving(true);
        goToExternal(url);
      },
      onError: (error) => toastError(error, 'Could not open the billing portal.'),
    });

  const openPayer = () =>
    coveredBy &&
    openOrganization.mutate(coveredBy.organizationId, {
      onError: (error) => toastError(error, `Could not open ${coveredBy.organizationName}.`),
    });

  const isSubscriber = group.data?.role === 'covered' && group.data.isSubscriber;
  const showPortal =
    !coveredBy &&
    canPortal &&
    current?.provider === 'stripe' &&
    (current.status === 'ACTIVE' || current.status === 'PAST_DUE');
  const bannerActions = (
    <>
      {coveredBy && isSubscriber && (
        <Button variant="secondary" onClick={openPayer} disabled={busy}>
          {openOrganization.isPending && <Spinner className="size-4" />}
          {openPayerLabel(coveredBy.organizationName)}
        </Button>
      )}
      {!coveredBy && canCancel && isCancellable(current) && (
        <Button variant="secondary" onClick={() => setConfirming(true)} disabled={busy}>
          Cancel Plan
        </Button>
      )}
      {showPortal && (
        <Button variant="secondary" onClick={openPortal} disabled={busy}>
          {portal.isPending && <Spinner className="size-4" />}
          Manage billing
        </Button>
      )}
    </>
  );

  const cancelNote =
    current?.status === 'ACTIVE' && current.cancelAtPeriodEnd && current.currentPeriodEnd
      ? `Ends on ${formatDate(current.currentPeriodEnd)}`
      : null;

  return (
    <div className="flex flex-col gap-6">
      {subscription.isError && (
        <Alert>
          {SUBSCRIPTION_LOAD_FAILED}{' '}
          <button
            type="button"
            className="font-semibold underline"
            onClick={() => void subscription.refetch()}
          >
            Try again
          </button>
        </Alert>
      )}
      {subscription.isPending ? (
        <LoadingIndicator label="Loading your subscription" className="py-6" />
      ) : (
        current !== undefined && (
          <SubscriptionBanner
            subscription={current}
            memberCount={memberCount.data}
            actions={bannerActions}
          />
        )
      )}

      {config.data?.provider === 'none' && (
        <p className="flex items-start gap-2 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {SELF_HOSTED_NOTE}
        </p>
      )}
      {group.data?.role === 'payer' &&
        (group.data.limit > 1 || group.data.organizations.length > 1) && (
          <BillingGroupPanel
            orgId={orgId}
            group={group.data}
            canChoose={canChoose && group.data.isSubscriber}
          />
        )}
      {coveredBy
        ? !isSubscriber && (
            <p className="text-sm text-slate-600">{coveredNote(coveredBy.organizationName)}</p>
          )
        : !(canTrial || canSubscribe || canCancel) && (
            <p className="text-sm text-slate-600">{READ_ONLY_NOTE}</p>
          )}

      {plans.isPending ? (
        <LoadingIndicator label="Loading pricing plans" className="py-16" />
      ) : plans.isError ? (
        <Alert>{PRICING_LOAD_FAILED}</Alert>
      ) : plans.data.length === 0 ? (
        <p className="rounded-xl bg-slate-50 p-6 text-center text-slate-700">{NO_PLANS}</p>
      ) : (
        <ul aria-label="Plans" className="grid items-stretch gap-6 md:grid-cols-2 lg:grid-cols-3">
          {plans.data.map((plan) => {
            const state = planState(plan, current);
            return (
              <PricingPlanCard
                key={plan.id}
                plan={plan}
                state={{
                  ...state,
                  showTrial: state.showTrial && canTrial && !coveredBy,
                  showSubscribe: state.showSubscribe && canSubscribe && !coveredBy,
                }}
                pending={pendingFor(plan)}
                busy={busy}
                note={state.current ? cancelNote : null}
                onAction={onAction}
              />
            );
          })}
        </ul>
      )}

      <ConfirmDialog
        open={trialFor !== null}
        onOpenChange={(open) => !open && !startTrial.isPending && setTrialFor(null)}
        title={trialFor ? `Start a free trial of ${trialFor.name}?` : 'Start a free trial?'}
        message={`Your organization gets every ${trialFor?.name ?? ''} feature free for ${TRIAL_DAYS} days, without payment. Each organization can start one free trial only.`}
        confirmLabel="Start free trial"
        cancelLabel="Not now"
        confirmVariant="primary"
        onConfirm={() => trialFor && onConfirmTrial(trialFor)}
        isPending={startTrial.isPending}
      />
      <CancelSubscriptionDialog
        subscription={current}
        open={confirming}
        onOpenChange={(open) => !cancel.isPending && setConfirming(open)}
        onConfirm={onConfirmCancel}
        isPending={cancel.isPending}
      />
    </div>
  );
}
