import { and, count, eq, gt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { members, organizations, plans, stripeEvents, subscriptions } from '../../db/schema.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionValues = Partial<
  Omit<typeof subscriptions.$inferInsert, 'id' | 'organizationId' | 'createdAt'>
>;

export async function findSubscription(db: Db, organizationId: string) {
  const [row] = await db
    .select({ subscription: subscriptions, plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.organizationId, organizationId));
  return row ?? null;
}

export async function findByStripeCustomer(db: Db, customerId: string) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.stripeCustomerId, customerId));
  return row ?? null;
}

/** Creates the organization's subscription or updates it in place (one row per organization). */
export async function saveSubscription(
  db: Db,
  organizationId: string,
  values: SubscriptionValues & {
    planId: string;
    status: SubscriptionRow['status'];
    provider: SubscriptionRow['provider'];
  },
) {
  const [row] = await db
    .insert(subscriptions)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({
      target: subscriptions.organizationId,
      set: { ...values, updatedAt: new Date() },
    })
    .returning();
  return row!;
}

export async function updateSubscription(db: Db, id: string, values: SubscriptionValues) {
  const [row] = await db
    .update(subscriptions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(subscriptions.id, id))
    .returning();
  return row!;
}

export async function organizationExists(db: Db, organizationId: string) {
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return Boolean(row);
}

/** Trials whose end has passed become EXPIRED; returns the organizations touched. */
export async function expireTrials(db: Db, now: Date) {
  return db
    .update(subscriptions)
    .set({ status: 'EXPIRED', updatedAt: now })
    .where(and(eq(subscriptions.status, 'TRIALING'), lte(subscriptions.trialEnd, now)))
    .returning({ organizationId: subscriptions.organizationId });
}

/** Self-billed (provider none) subscriptions cancelled earlier end at their period's end. */
export async function endCanceledPeriods(db: Db, now: Date) {
  return db
    .update(subscriptions)
    .set({ status: 'CANCELED', canceledAt: now, updatedAt: now })
    .where(
      and(
        eq(subscriptions.status, 'ACTIVE'),
        eq(subscriptions.provider, 'none'),
        eq(subscriptions.cancelAtPeriodEnd, true),
        lte(subscriptions.currentPeriodEnd, now),
      ),
    )
    .returning({ organizationId: subscriptions.organizationId });
}

/** Self-billed subscriptions renew by themselves: roll the period forward by one cycle. */
export async function renewSelfBilledPeriods(db: Db, now: Date) {
  return db.execute(sql`
    update ${subscriptions} s
       set current_period_start = s.current_period_end,
           current_period_end = s.current_period_end + (case p.billing_cycle when 'YEARLY' then interval '1 year' else interval '1 month' end),
           updated_at = ${now}
      from ${plans} p
     where p.id = s.plan_id and s.status = 'ACTIVE' and s.provider = 'none'
       and s.cancel_at_period_end = false and s.current_period_end <= ${now}`);
}

/** Records a Stripe event as handled; false when it already was (Stripe delivers again). */
export async function recordStripeEvent(db: Db, id: string, type: string) {
  const inserted = await db
    .insert(stripeEvents)
    .values({ id, type })
    .onConflictDoNothing()
    .returning();
  return inserted.length > 0;
}

/** Members plus live pending invitations. */
export async function countSeats(db: Db, organizationId: string, now: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(members)
    .where(
      and(
        eq(members.organizationId, organizationId),
        or(
          eq(members.status, 'ACTIVE'),
          and(eq(members.status, 'PENDING'), gt(members.inviteExpiresAt, now)),
        ),
      ),
    );
  return row?.n ?? 0;
}

/** The organizations this user owns. */
export function organizationsOwnedBy(db: Db, userId: string) {
  return db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.ownerUserId, userId));
}
