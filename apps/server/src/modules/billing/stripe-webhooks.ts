import type Stripe from 'stripe';
import type { SubscriptionStatus } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { notifyOrganizationAdmins } from '../notifications/notifications.service.js';
import { findPlan, findPlanByStripePrice } from '../plans/plans.service.js';
import {
  notifyCoverageChanges,
  notifyCoveredOrganizations,
  snapshotCoverage,
} from './billing-group.js';
import type { StripeBilling } from './billing-provider.js';
import { isEntitled } from './subscription-state.js';
import * as repo from './subscriptions.repository.js';

const STATUS_FROM_STRIPE: Record<Stripe.Subscription.Status, SubscriptionStatus> = {
  active: 'ACTIVE',
  trialing: 'TRIALING',
  past_due: 'PAST_DUE',
  unpaid: 'PAST_DUE',
  canceled: 'CANCELED',
  incomplete: 'PAST_DUE',
  incomplete_expired: 'EXPIRED',
  paused: 'PAST_DUE',
};

const fromUnix = (s: number | null | undefined) =>
  typeof s === 'number' ? new Date(s * 1000) : null;
const idOf = (v: string | { id: string } | null | undefined) =>
  typeof v === 'string' ? v : (v?.id ?? null);

/** Period bounds moved from the subscription to its items in recent API versions: read either. */
function periodOf(sub: Stripe.Subscription) {
  const item = sub.items?.data?.[0] as
    | (Stripe.SubscriptionItem & { current_period_start?: number; current_period_end?: number })
    | undefined;
  const legacy = sub as Stripe.Subscription & {
    current_period_start?: number;
    current_period_end?: number;
  };
  return {
    currentPeriodStart: fromUnix(item?.current_period_start ?? legacy.current_period_start),
    currentPeriodEnd: fromUnix(item?.current_period_end ?? legacy.current_period_end),
  };
}

function fieldsOf(sub: Stripe.Subscription) {
  return {
    status: STATUS_FROM_STRIPE[sub.status] ?? 'PAST_DUE',
    stripeSubscriptionId: sub.id,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    canceledAt: fromUnix(sub.canceled_at),
    trialStart: fromUnix(sub.trial_start),
    trialEnd: fromUnix(sub.trial_end),
    ...periodOf(sub),
  };
}

const unknownCustomer = (customer: string | null) =>
  new AppError(
    'NOT_FOUND',
    `No organization is billed to the Stripe customer ${customer ?? '(none)'}.`,
  );

/**
 * Applies one verified Stripe event. The event id is recorded in the same transaction, so a
 * replayed event changes nothing, and a refused one (unknown customer) leaves no trace.
 * Returns false for a duplicate.
 */
export async function applyStripeEvent(
  db: Db,
  billing: StripeBilling,
  event: Stripe.Event,
): Promise<boolean> {
  // Read what we need from Stripe before the transaction: no network calls while it is open.
  let checkoutSubscription: Stripe.Subscription | null = null;
  if (event.type === 'checkout.session.completed') {
    const subId = idOf(event.data.object.subscription);
    if (subId) checkoutSubscription = await billing.stripe.subscriptions.retrieve(subId);
  }
  return db.transaction(async (tx) => {
    if (!(await repo.recordStripeEvent(tx, event.id, event.type))) return false;
    switch (event.type) {
      case 'checkout.session.completed':
        await onCheckoutCompleted(tx, event.data.object, checkoutSubscription);
        break;
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        await onSubscriptionChanged(
          tx,
          event.data.object,
          event.type === 'customer.subscription.deleted',
        );
        break;
      case 'invoice.payment_failed':
      case 'invoice.paid':
        await onInvoice(tx, event.data.object, event.type === 'invoice.paid');
        break;
      default:
        break;
    }
    return true;
  });
}

async function onCheckoutCompleted(
  db: Db,
  session: Stripe.Checkout.Session,
  sub: Stripe.Subscription | null,
) {
  const organizationId = session.metadata?.organizationId ?? session.client_reference_id;
  const planId = session.metadata?.planId;
  if (!organizationId || !planId || !(await repo.organizationExists(db, organizationId))) {
    throw new AppError('NOT_FOUND', 'This Checkout session belongs to no organization here.');
  }
  const plan = await findPlan(db, planId);
  if (!plan)
    throw new AppError('NOT_FOUND', 'This Checkout session names a plan that does not exist.');
  const customer = idOf(session.customer);
  const owner = (await repo.findOrganizationOwner(db, organizationId))?.ownerUserId ?? null;
  const before = await snapshotCoverage(db, [owner]);
  await repo.saveSubscription(db, organizationId, {
    planId: plan.id,
    provider: 'stripe',
    stripeCustomerId: customer,
    ...(sub
      ? fieldsOf(sub)
      : { status: 'ACTIVE' as const, stripeSubscriptionId: idOf(session.subscription) }),
  });
  await notifyOrganizationAdmins(db, organizationId, {
    type: 'SUBSCRIPTION_UPDATE',
    priority: 'MEDIUM',
    message: `Payment received: your organization is now subscribed to ${plan.name}.`,
  });
  await notifyCoverageChanges(db, before, await snapshotCoverage(db, [owner]));
}

async function onSubscriptionChanged(db: Db, sub: Stripe.Subscription, deleted: boolean) {
  const customer = idOf(sub.customer);
  const row = customer ? await repo.findByStripeCustomer(db, customer) : null;
  if (!row) throw unknownCustomer(customer);
  // Events of another (older) subscription of the same customer must not overwrite this one.
  if (row.stripeSubscriptionId && row.stripeSubscriptionId !== sub.id) return;
  const priceId = sub.items?.data?.[0]?.price?.id;
  const plan = priceId ? await findPlanByStripePrice(db, priceId) : null;
  const owner = (await repo.findOrganizationOwner(db, row.organizationId))?.ownerUserId ?? null;
  const before = await snapshotCoverage(db, [owner]);
  const fields = fieldsOf(sub);
  const updated = await repo.updateSubscription(db, row.id, {
    ...fields,
    ...(deleted
      ? { status: 'CANCELED' as const, canceledAt: fields.canceledAt ?? new Date() }
      : {}),
    ...(plan ? { planId: plan.id } : {}),
  });
  let told: string[] = [];
  if (updated.status !== row.status || updated.cancelAtPeriodEnd !== row.cancelAtPeriodEnd) {
    await notifyOrganizationAdmins(db, row.organizationId, {
      type: 'SUBSCRIPTION_UPDATE',
      priority: updated.status === 'CANCELED' ? 'HIGH' : 'MEDIUM',
      message: deleted
        ? 'Your subscription has ended.'
        : updated.cancelAtPeriodEnd
          ? `Your subscription will end on ${updated.currentPeriodEnd?.toISOString().slice(0, 10) ?? 'the end of the period'}.`
          : `Your subscription is now ${updated.status.toLowerCase().replace('_', ' ')}.`,
    });
    told = await notifyCoveredOrganizations(db, row.organizationId, {
      type: 'SUBSCRIPTION_UPDATE',
      priority: updated.status === 'CANCELED' ? 'HIGH' : 'MEDIUM',
      message: (payer) => {
        const plan = `${payer.name}'s ${payer.plan} plan`;
        if (deleted) return `${plan}, which covered this organization, has ended.`;
        if (updated.cancelAtPeriodEnd) {
          return `${plan}, which covers this organization, will end on ${updated.currentPeriodEnd?.toISOString().slice(0, 10) ?? 'the end of the period'}; this organization is covered until then.`;
        }
        const status = updated.status.toLowerCase().replace('_', ' ');
        return isEntitled(updated)
          ? `${plan} is now ${status}: it covers this organization.`
          : `${plan} is now ${status}: this organization is not covered meanwhile.`;
      },
    });
  }
  // A change of plan in the portal (a smaller one) may leave organizations out of its cover.
  await notifyCoverageChanges(db, before, await snapshotCoverage(db, [owner]), {
    skip: new Set(told),
  });
}

async function onInvoice(db: Db, invoice: Stripe.Invoice, paid: boolean) {
  const customer = idOf(invoice.customer);
  const row = customer ? await repo.findByStripeCustomer(db, customer) : null;
  if (!row) throw unknownCustomer(customer);
  if (!paid) {
    await repo.updateSubscription(db, row.id, { status: 'PAST_DUE' });
    await notifyOrganizationAdmins(db, row.organizationId, {
      type: 'PAYMENT_ISSUE',
      priority: 'HIGH',
      message:
        'A payment for your subscription failed. Update your payment method to keep your plan.',
    });
    await notifyCoveredOrganizations(db, row.organizationId, {
      type: 'PAYMENT_ISSUE',
      priority: 'HIGH',
      message: (payer) =>
        `A payment for ${payer.name}'s ${payer.plan} plan failed: this organization is not covered until it is paid.`,
    });
  } else if (row.status === 'PAST_DUE') {
    await repo.updateSubscription(db, row.id, { status: 'ACTIVE' });
    await notifyOrganizationAdmins(db, row.organizationId, {
      type: 'SUBSCRIPTION_UPDATE',
      priority: 'MEDIUM',
      message: 'Payment received: your subscription is active again.',
    });
    await notifyCoveredOrganizations(db, row.organizationId, {
      type: 'SUBSCRIPTION_UPDATE',
      priority: 'MEDIUM',
      message: (payer) =>
        `Payment received: ${payer.name}'s ${payer.plan} plan covers this organization again.`,
    });
  }
}
