import { ENTITLED_STATUSES, type SubscriptionStatus } from '@herald/contract';
import type { SubscriptionRow } from './subscriptions.repository.js';

/**
 * The status in force now. Between two runs of the sweep job a trial may have ended or a
 * cancelled period run out; gates and screens must not wait for the job.
 */
export function effectiveStatus(s: SubscriptionRow, now = new Date()): SubscriptionStatus {
  if (s.status === 'TRIALING' && s.trialEnd && s.trialEnd <= now) return 'EXPIRED';
  if (
    s.status === 'ACTIVE' &&
    s.cancelAtPeriodEnd &&
    s.provider === 'none' &&
    s.currentPeriodEnd &&
    s.currentPeriodEnd <= now
  ) {
    return 'CANCELED';
  }
  return s.status;
}

/** A TRIALING or ACTIVE subscription (as of now): it unlocks the gated actions. */
export function isEntitled(s: SubscriptionRow | null | undefined, now = new Date()): boolean {
  return Boolean(s && ENTITLED_STATUSES.includes(effectiveStatus(s, now)));
}
