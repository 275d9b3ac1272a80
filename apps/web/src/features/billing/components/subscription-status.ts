import type { Plan, Subscription, SubscriptionStatus } from '@herald/contract';
import dayjs from 'dayjs';

const DAY_MS = 24 * 60 * 60 * 1000;

export const formatDate = (iso: string) => dayjs(iso).format('MMM D, YYYY');

/** docs/product.md#constants: ceiling of days to trialEnd, at least 0 (the server's count when it sent one). */
export function trialDaysLeft(subscription: Subscription, now = Date.now()): number {
  if (subscription.trialDaysRemaining !== null) return subscription.trialDaysRemaining;
  if (!subscription.trialEnd) return 0;
  return Math.max(0, Math.ceil((Date.parse(subscription.trialEnd) - now) / DAY_MS));
}

export const daysRemaining = (days: number) => `${days} ${days === 1 ? 'day' : 'days'} remaining`;

/** Statuses with something left to cancel (a cancelled-at-period-end plan has nothing). */
const CANCELLABLE: readonly SubscriptionStatus[] = ['TRIALING', 'ACTIVE', 'PAST_DUE'];

export function isCancellable(subscription: Subscription | null | undefined): boolean {
  return Boolean(
    subscription && CANCELLABLE.includes(subscription.status) && !subscription.cancelAtPeriodEnd,
  );
}

/** Trialing and active subscriptions exclude another trial (docs/product.md#subscription-states). */
export function isEntitled(subscription: Subscription | null | undefined): boolean {
  return subscription?.status === 'TRIALING' || subscription?.status === 'ACTIVE';
}

export interface PlanState {
  /** Badge 'Active Trial': the plan being tried. */
  activeTrial: boolean;
  /** Badge 'Current Plan': the plan paid for. */
  current: boolean;
  /** 'Start free trial': only while the organization could start one (never used, nothing running). */
  showTrial: boolean;
  /** 'Subscribe', except on the plan already paid for (until it is set to end). */
  showSubscribe: boolean;
}

/**
 * What a plan card offers, given the organization's subscription (docs/product.md#pricing,
 * docs/product.md#subscription-states). One set of actions per state, nothing shown disabled:
 * - none (or ended): 'Start free trial' (when the plan has one and it was never used) and 'Subscribe';
 * - trialing: 'Subscribe' on every plan, the tried one included (to keep it after the trial);
 * - active: nothing on the plan paid for (its badge says so), 'Subscribe' on the others;
 * - active, cancelled at period end: 'Subscribe' everywhere, the current plan to keep it.
 * Cancelling is the banner's 'Cancel Plan', never repeated on a card.
 */
export function planState(plan: Plan, subscription: Subscription | null | undefined): PlanState {
  const status = subscription?.status;
  const isTheirs = subscription?.plan.id === plan.id;
  return {
    activeTrial: isTheirs && status === 'TRIALING',
    current: isTheirs && status === 'ACTIVE',
    showTrial: plan.trialEligible && !subscription?.trialUsed && !isEntitled(subscription),
    showSubscribe: !(isTheirs && status === 'ACTIVE' && !subscription?.cancelAtPeriodEnd),
  };
}
