import {
  TRIAL_DAYS,
  type BillingGroup as BillingGroupDto,
  type Subscription,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { notifyOrganizationAdmins } from '../notifications/notifications.service.js';
import { getPurchasablePlan } from '../plans/plans.service.js';
import type { PlanRow } from '../plans/plans.service.js';
import {
  type BillingGroup,
  coverageOf,
  loadBillingGroup,
  notifyCoverageChanges,
  notifyCoveredOrganizations,
  snapshotCoverage,
} from './billing-group.js';
import { type BillingProvider, MissingPriceError } from './billing-provider.js';
import { effectiveStatus, isEntitled } from './subscription-state.js';
import * as repo from './subscriptions.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** docs/product.md#constants: ceiling of days to trialEnd, at least 0. */
export function trialDaysRemaining(trialEnd: Date, now = new Date()) {
  return Math.max(0, Math.ceil((trialEnd.getTime() - now.getTime()) / DAY_MS));
}

function toSubscriptionDto(
  s: repo.SubscriptionRow,
  plan: PlanRow,
  now = new Date(),
  coveredBy: Subscription['coveredBy'] = null,
): Subscription {
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
    coveredBy,
  };
}

/**
 * The plan in force for an organization: its own subscription while TRIALING or ACTIVE, else the
 * subscription of the organization that covers it (docs/product.md#billing-groups), else none.
 */
export async function findEntitlement(db: Db, organizationId: string, now = new Date()) {
  const own = await repo.findSubscription(db, organizationId);
  if (own && isEntitled(own.subscription, now)) {
    return { subscription: own.subscription, plan: own.plan, payer: null, own };
  }
  const coverage = await coverageOf(db, organizationId, { now });
  if (coverage?.role === 'covered') {
    const { payer } = coverage.group;
    return { subscription: payer.subscription, plan: payer.plan, payer, own };
  }
  return { subscription: null, plan: null, payer: null, own };
}

/**
 * The organization's subscription: its own, or the one that covers it (with `coveredBy`), or its
 * own that has ended, or null.
 */
export async function getSubscription(
  db: Db,
  organizationId: string,
): Promise<Subscription | null> {
  const now = new Date();
  const found = await findEntitlement(db, organizationId, now);
  if (found.payer) {
    return toSubscriptionDto(found.payer.subscription, found.payer.plan, now, {
      organizationId: found.payer.id,
      organizationName: found.payer.name,
    });
  }
  return found.own ? toSubscriptionDto(found.own.subscription, found.own.plan, now) : null;
}

/** The plan in force for an organization (its own or its payer's), or null without one. */
export async function getEntitledPlan(db: Db, organizationId: string): Promise<PlanRow | null> {
  return (await findEntitlement(db, organizationId)).plan;
}

/** The refusal for a plan change asked of an organization another one pays for. */
function coveredRefusal(group: BillingGroup, what: string) {
  return new AppError(
    'CONFLICT',
    `This organization is covered by ${group.plan.name} from ${group.payer.name}: ${what}`,
  );
}

function addCycle(from: Date, cycle: PlanRow['billingCycle']) {
  const d = new Date(from);
  if (cycle === 'YEARLY') d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return d;
}

/**
 * A 7-day trial: no card, only on plans that offer one, once per organization and once per owner
 * (docs/product.md#billing-groups: an owner's next organization is covered by their plan, not
 * given a trial of its own), and not for an organization another one already covers.
 */
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
    if (existing && isEntitled(existing.subscription)) {
      throw new AppError(
        'CONFLICT',
        `This organization already has an active ${existing.plan.name} subscription.`,
      );
    }
    const coverage = await coverageOf(tx, organizationId);
    if (coverage?.role === 'covered') throw coveredRefusal(coverage.group, 'it needs no trial.');
    if (await repo.ownerUsedTrialElsewhere(tx, organizationId)) {
      throw new AppError(
        'CONFLICT',
        "This organization's owner has already used their free trial. Subscribe to a plan to continue.",
      );
    }
    const owner = (await repo.findOrganizationOwner(tx, organizationId))?.ownerUserId ?? null;
    const before = await snapshotCoverage(tx, [owner]);
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
    await notifyCoverageChanges(tx, before, await snapshotCoverage(tx, [owner]));
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
  if (!isEntitled(existing?.subscription)) {
    const coverage = await coverageOf(db, ctx.organizationId);
    if (coverage?.role === 'covered') {
      throw coveredRefusal(
        coverage.group,
        `change plans from the billing of ${coverage.group.payer.name}.`,
      );
    }
  }
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
    const owner = (await repo.findOrganizationOwner(tx, ctx.organizationId))?.ownerUserId ?? null;
    const before = await snapshotCoverage(tx, [owner]);
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
    // A smaller plan may leave some organizations out: they are told, and so are new ones.
    await notifyCoverageChanges(tx, before, await snapshotCoverage(tx, [owner]));
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
    const coverage = await coverageOf(db, organizationId);
    if (coverage?.role === 'covered') {
      throw coveredRefusal(coverage.group, `only ${coverage.group.payer.name} can cancel it.`);
    }
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
    await notifyCoveredOrganizations(tx, organizationId, {
      type: 'SUBSCRIPTION_UPDATE',
      priority: row.status === 'CANCELED' ? 'HIGH' : 'MEDIUM',
      message: (payer) =>
        row.status === 'CANCELED'
          ? `${payer.name}'s ${payer.plan} plan, which covered this organization, has been cancelled.`
          : `${payer.name}'s ${payer.plan} plan, which covers this organization, will end on ${row.currentPeriodEnd?.toISOString().slice(0, 10)}; this organization is covered until then.`,
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

function toPayerView(group: BillingGroup, isSubscriber: boolean): BillingGroupDto {
  const entry =
    (state: 'payer' | 'covered' | 'not_covered' | 'own_plan') =>
    (o: { id: string; name: string; createdAt: Date }) => ({
      id: o.id,
      name: o.name,
      state,
      createdAt: o.createdAt.toISOString(),
    });
  return {
    role: 'payer',
    plan: { id: group.plan.id, name: group.plan.name },
    limit: group.limit,
    coveredCount: 1 + group.covered.length,
    isSubscriber,
    pooled: group.plan.features.pooled ?? [],
    organizations: [
      entry('payer')(group.payer),
      ...group.covered.map(entry('covered')),
      ...group.uncovered.map(entry('not_covered')),
      ...group.ownPlan.map(entry('own_plan')),
    ],
  };
}

/**
 * The billing group as this organization sees it (docs/product.md#billing-groups): the paying
 * organization sees all its subscriber's organizations; a covered one only who pays for it, so
 * one client never learns of another.
 */
export async function getBillingGroup(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<BillingGroupDto | null> {
  const coverage = await coverageOf(db, organizationId);
  if (!coverage) return null;
  const { group } = coverage;
  const isSubscriber = group.ownerUserId === userId;
  if (coverage.role === 'payer') return toPayerView(group, isSubscriber);
  return {
    role: 'covered',
    plan: { id: group.plan.id, name: group.plan.name },
    payer: { id: group.payer.id, name: group.payer.name },
    isSubscriber,
  };
}

/**
 * The subscriber chooses which of their organizations the plan covers first (when they own more
 * than it covers); the rest of its room goes by creation date. Only the owner of the paying
 * organization chooses, and only among organizations they own without a plan of their own.
 */
export async function chooseCoverage(
  db: Db,
  organizationId: string,
  userId: string,
  organizationIds: string[],
): Promise<BillingGroupDto> {
  return db.transaction(async (tx) => {
    const coverage = await coverageOf(tx, organizationId);
    if (coverage?.role === 'covered') {
      throw coveredRefusal(
        coverage.group,
        `choose what it covers from the billing of ${coverage.group.payer.name}.`,
      );
    }
    if (!coverage) {
      throw new AppError(
        'CONFLICT',
        'This organization pays for no plan that covers other organizations. Subscribe to a plan first.',
      );
    }
    const { group } = coverage;
    if (group.ownerUserId !== userId) {
      throw new AppError(
        'FORBIDDEN',
        `Only the owner of ${group.payer.name} can choose which organizations its plan covers.`,
      );
    }
    const chosen = organizationIds.filter((id) => id !== group.payer.id);
    const eligible = new Set([...group.covered, ...group.uncovered].map((o) => o.id));
    if (chosen.some((id) => !eligible.has(id))) {
      throw new AppError(
        'VALIDATION_FAILED',
        'Choose organizations you own that have no plan of their own.',
      );
    }
    const room = group.limit - 1;
    if (chosen.length > room) {
      throw new AppError(
        'VALIDATION_FAILED',
        `Your ${group.plan.name} plan covers ${group.limit} organization${group.limit === 1 ? '' : 's'}, ${group.payer.name} included: choose at most ${room} other${room === 1 ? '' : 's'}.`,
      );
    }
    const before = await snapshotCoverage(tx, [group.ownerUserId]);
    await repo.replaceCoverageChoices(tx, group.ownerUserId, chosen);
    await notifyCoverageChanges(tx, before, await snapshotCoverage(tx, [group.ownerUserId]), {
      reason: 'its owner chose to cover other organizations',
    });
    const { group: now } = await loadBillingGroup(tx, { ownerUserId: group.ownerUserId });
    return toPayerView(now!, true);
  });
}

/**
 * Before and after a change of ownership: the organizations whose coverage it ends or starts
 * are told (docs/product.md#billing-groups). The change runs inside `change`.
 */
export async function withCoverageNotices<T>(
  db: Db,
  ownerUserIds: Array<string | null>,
  change: () => Promise<T>,
  reason?: string,
): Promise<T> {
  const before = await snapshotCoverage(db, ownerUserIds);
  const result = await change();
  await notifyCoverageChanges(db, before, await snapshotCoverage(db, ownerUserIds), { reason });
  return result;
}

/** The organization left its owner's choice of covered organizations (its ownership moved). */
export const dropCoverageChoice = (db: Db, organizationId: string) =>
  repo.dropCoverageChoice(db, organizationId);

/** Passes a notice about a paying organization's plan on to the organizations it covers. */
export const notifyCovered = notifyCoveredOrganizations;

/** Trials whose end has passed become EXPIRED; returns the organizations touched. */
export const expireTrials = (db: Db, now: Date) => repo.expireTrials(db, now);

/** Self-billed subscriptions cancelled earlier end at their period's end; returns those touched. */
export const endCanceledPeriods = (db: Db, now: Date) => repo.endCanceledPeriods(db, now);

/** Self-billed subscriptions renew by themselves: their period rolls forward by one cycle. */
export const renewSelfBilledPeriods = (db: Db, now: Date) => repo.renewSelfBilledPeriods(db, now);
