import {
  ENTITLED_STATUSES,
  TRIAL_DAYS,
  type Subscription,
  type SubscriptionStatus,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { notifyOrganizationAdmins } from '../notifications/notifications.service.js';
import { getPurchasablePlan } from '../plans/plans.service.js';
import type { PlanRow } from '../plans/plans.service.js';
import { type BillingProvider, MissingPriceError } from './billing-provider.js';
import * as repo from './subscriptions.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The status in force now. Between two runs of the sweep job a trial may have ended or a
 * cancelled period run out; gates and screens must not wait for the job.
 */
function effectiveStatus(s: repo.SubscriptionRow, now = new Date()): SubscriptionStatus {
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

/** docs/product.md#constants: ceiling of days to trialEnd, at least 0. */
export function trialDaysRemaining(trialEnd: Date, now = new Date()) {
  return Math.max(0, Math.ceil((trialEnd.getTime() - now.getTime()) / DAY_MS));
}

function toSubscriptionDto(s: repo.SubscriptionRow, plan: PlanRow, now = new Date()): Subscription {
  const status = effectiveStatus(s, now);
  return {
    id: s.id,
    status,
    plan: { id: plan.id, name: plan.name },
    provider: s.provider,
    trialUsed: s.trialUsed,
    trialStart: iso(s.trialStart),
    trialEnd: iso(s.trialEnd),
    trialDaysRemaining:
      status === 'TRIALING' && s.trialEnd ? trialDaysRemaining(s.trialEnd, now) : null,
    currentPeriodEnd: iso(s.currentPeriodEnd),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    canceledAt: iso(s.canceledAt),
  };
}

export async function getSubscription(
  db: Db,
  organizationId: string,
): Promise<Subscription | null> {
  const found = await repo.findSubscription(db, organizationId);
  return found ? toSubscriptionDto(found.subscription, found.plan) : null;
}

/** The plan in force for an organization, or null without a TRIALING/ACTIVE subscription. */
export async function getEntitledPlan(db: Db, organizationId: string): Promise<PlanRow | null> {
  const found = await repo.findSubscription(db, organizationId);
  if (!found || !ENTITLED_STATUSES.includes(effectiveStatus(found.subscription))) return null;
  return found.plan;
}

function addCycle(from: Date, cycle: PlanRow['billingCycle']) {
  const d = new Date(from);
  if (cycle === 'YEARLY') d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return d;
}

/** A 7-day trial: no card, once per organization, only on plans that offer one. */
export async function startTrial(
  db: Db,
  organizationId: string,
  planId: string,
): Promise<Subscription> {
  const plan = await getPurchasablePlan(db, planId);
  if (!plan.trialEligible)
    throw new AppError('VALIDATION_FAILED', `The ${plan.name} plan does not offer a free trial.`);
  return db.transaction(async (tx) => {
    const existing = await repo.findSubscription(tx, organizationId);
    if (existing?.subscription.trialUsed) {
      throw new AppError(
        'CONFLICT',
        'This organization has already used its free trial. Subscribe to a plan to continue.',
      );
    }
    if (existing && ENTITLED_STATUSES.includes(effectiveStatus(existing.subscription))) {
      throw new AppError(
        'CONFLICT',
        `This organization already has an active ${existing.plan.name} subscription.`,
      );
    }
    const now = new Date();
    const row = await repo.saveSubscription(tx, organizationId, {
      planId: plan.id,
      status: 'TRIALING',
      provider: 'none',
      trialUsed: true,
      trialStart: now,
      trialEnd: new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
      currentPeriodStart: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      canceledAt: null,
    });
    await notifyOrganizationAdmins(tx, organizationId, {
      type: 'SUBSCRIPTION_UPDATE',
      priority: 'MEDIUM',
      message: `Your ${TRIAL_DAYS}-day free trial of ${plan.name} has started.`,
    });
    return toSubscriptionDto(row, plan, now);
  });
}

/**
 * Subscribes to a plan. Without a payment provider the plan is active at once; with Stripe the
 * answer carries the Checkout URL and the subscription changes when Stripe confirms payment.
 */
export async function subscribe(
  db: Db,
  billing: BillingProvider,
  ctx: { organizationId: string; customerEmail: string; publicUrl: string },
  planId: string,
): Promise<{ subscription: Subscription | null; checkoutUrl: string | null }> {
  const plan = await getPurchasablePlan(db, planId);
  const existing = await repo.findSubscription(db, ctx.organizationId);
  if (
    existing &&
    existing.plan.id === plan.id &&
    effectiveStatus(existing.subscription) === 'ACTIVE' &&
    !existing.subscription.cancelAtPeriodEnd
  ) {
    throw new AppError('CONFLICT', `Your organization is already subscribed to ${plan.name}.`);
  }
  if (billing.kind === 'stripe') {
    // A second Checkout would start a second paid subscription: change plans in the portal.
    const current = existing ? effectiveStatus(existing.subscription) : null;
    if (
      existing?.subscription.provider === 'stripe' &&
      (current === 'ACTIVE' || current === 'PAST_DUE') &&
      !existing.subscription.cancelAtPeriodEnd
    ) {
      throw new AppError(
        'CONFLICT',
        `Your organization already pays for ${existing.plan.name}. Change plans with Manage billing.`,
      );
    }
    try {
      const checkoutUrl = await billing.startCheckout({
        organizationId: ctx.organizationId,
        planId: plan.id,
        stripePriceId: plan.stripePriceId,
        planName: plan.name,
        customerEmail: ctx.customerEmail,
        customerId: existing?.subscription.stripeCustomerId ?? null,
        successUrl: `${ctx.publicUrl}/pricing?checkout=success`,
        cancelUrl: `${ctx.publicUrl}/pricing?checkout=cancelled`,
      });
      return {
        subscription: existing ? toSubscriptionDto(existing.subscription, existing.plan) : null,
        checkoutUrl,
      };
    } catch (err) {
      if (err instanceof MissingPriceError) {
        throw new AppError(
          'VALIDATION_FAILED',
          `The ${plan.name} plan cannot be bought online yet. Please contact support.`,
        );
      }
      throw new AppError(
        'UNAVAILABLE',
        'The payment provider could not be reached. Please try again in a moment.',
      );
    }
  }
  return db.transaction(async (tx) => {
    const now = new Date();
    const row = await repo.saveSubscription(tx, ctx.organizationId, {
      planId: plan.id,
      status: 'ACTIVE',
      provider: 'none',
      currentPeriodStart: now,
      currentPeriodEnd: addCycle(now, plan.billingCycle),
      cancelAtPeriodEnd: false,
      canceledAt: null,
    });
    await notifyOrganizationAdmins(tx, ctx.organizationId, {
      type: 'SUBSCRIPTION_UPDATE',
      priority: 'MEDIUM',
      message: `Your organization is now subscribed to ${plan.name}.`,
    });
    return { subscription: toSubscriptionDto(row, plan, now), checkoutUrl: null };
  });
}

/**
 * Cancels. A trial ends at once (there is no paid period); a paid subscription keeps access
 * until the end of the period it was paid for.
 */
export async function cancel(
  db: Db,
  billing: BillingProvider,
  organizationId: string,
): Promise<Subscription> {
  const existing = await repo.findSubscription(db, organizationId);
  const status = existing ? effectiveStatus(existing.subscription) : null;
  if (
    !existing ||
    !status ||
    !['TRIALING', 'ACTIVE', 'PAST_DUE'].includes(status) ||
    existing.subscription.cancelAtPeriodEnd
  ) {
    throw new AppError('CONFLICT', 'There is no active subscription to cancel.');
  }
  const s = existing.subscription;
  if (s.provider === 'stripe') {
    try {
      await billing.cancelAtPeriodEnd(s.stripeSubscriptionId);
    } catch {
      throw new AppError(
        'UNAVAILABLE',
        'The payment provider could not be reached. Please try again in a moment.',
      );
    }
  }
  return db.transaction(async (tx) => {
    const now = new Date();
    const endsNow = status === 'TRIALING' || !s.currentPeriodEnd || s.currentPeriodEnd <= now;
    const row = await repo.updateSubscription(
      tx,
      s.id,
      endsNow && s.provider === 'none'
        ? { status: 'CANCELED', canceledAt: now, cancelAtPeriodEnd: false }
        : { cancelAtPeriodEnd: true, canceledAt: now },
    );
    await notifyOrganizationAdmins(tx, organizationId, {
      type: 'SUBSCRIPTION_UPDATE',
      priority: 'MEDIUM',
      message:
        row.status === 'CANCELED'
          ? `Your ${existing.plan.name} subscription has been cancelled.`
          : `Your ${existing.plan.name} subscription will end on ${row.currentPeriodEnd?.toISOString().slice(0, 10)}.`,
    });
    return toSubscriptionDto(row, existing.plan, now);
  });
}

export async function billingPortalUrl(
  db: Db,
  billing: BillingProvider,
  organizationId: string,
  publicUrl: string,
) {
  const existing = await repo.findSubscription(db, organizationId);
  const customer = existing?.subscription.stripeCustomerId;
  if (billing.kind !== 'stripe' || !customer) {
    throw new AppError(
      'CONFLICT',
      'There is no billing account to manage yet: subscribe to a plan first.',
    );
  }
  return billing.portalUrl(customer, `${publicUrl}/pricing`);
}

/** Trials whose end has passed become EXPIRED; returns the organizations touched. */
export const expireTrials = (db: Db, now: Date) => repo.expireTrials(db, now);

/** Self-billed subscriptions cancelled earlier end at their period's end; returns those touched. */
export const endCanceledPeriods = (db: Db, now: Date) => repo.endCanceledPeriods(db, now);

/** Self-billed subscriptions renew by themselves: their period rolls forward by one cycle. */
export const renewSelfBilledPeriods = (db: Db, now: Date) => repo.renewSelfBilledPeriods(db, now);
