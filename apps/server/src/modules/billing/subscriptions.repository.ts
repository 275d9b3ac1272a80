import { and, asc, count, eq, gt, gte, inArray, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  coverageChoices,
  integrations,
  members,
  organizations,
  plans,
  posts,
  stripeEvents,
  subscriptions,
} from '../../db/schema.js';

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

/**
 * A billing group's raw material: every organization its owner owns and still belongs to (an
 * owner who left an organization no longer pays for it), each with its own subscription and plan
 * if any and the owner's coverage choice (a choice made by an earlier owner does not count).
 * Named by the owner, or by one of the organizations (its owner's then; none without an owner).
 */
export async function billingGroupRows(
  db: Db,
  of: { ownerUserId: string } | { organizationId: string },
) {
  const owner =
    'ownerUserId' in of
      ? sql`${of.ownerUserId}::uuid`
      : sql`(select o.owner_user_id from ${organizations} o where o.id = ${of.organizationId})`;
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      ownerUserId: organizations.ownerUserId,
      createdAt: organizations.createdAt,
      subscription: subscriptions,
      plan: plans,
      choice: coverageChoices.position,
    })
    .from(organizations)
    .innerJoin(
      members,
      and(
        eq(members.organizationId, organizations.id),
        eq(members.userId, organizations.ownerUserId),
        eq(members.status, 'ACTIVE'),
      ),
    )
    .leftJoin(subscriptions, eq(subscriptions.organizationId, organizations.id))
    .leftJoin(plans, eq(plans.id, subscriptions.planId))
    .leftJoin(
      coverageChoices,
      and(
        eq(coverageChoices.organizationId, organizations.id),
        eq(coverageChoices.ownerUserId, organizations.ownerUserId),
      ),
    )
    .where(eq(organizations.ownerUserId, owner))
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
}
export type BillingGroupRow = Awaited<ReturnType<typeof billingGroupRows>>[number];

/** The owner and name of an organization. */
export async function findOrganizationOwner(db: Db, organizationId: string) {
  const [row] = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      ownerUserId: organizations.ownerUserId,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row ?? null;
}

/**
 * Whether the owner of this organization used a free trial in another organization they own
 * (or owned and left): one trial per subscriber, or a new organization would bring a new one.
 */
export async function ownerUsedTrialElsewhere(db: Db, organizationId: string) {
  const [row] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .innerJoin(organizations, eq(organizations.id, subscriptions.organizationId))
    .where(
      and(
        eq(subscriptions.trialUsed, true),
        sql`${organizations.id} <> ${organizationId}`,
        eq(
          organizations.ownerUserId,
          sql`(select o.owner_user_id from ${organizations} o where o.id = ${organizationId})`,
        ),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Replaces the owner's coverage choice: these organizations, in this order, first. */
export async function replaceCoverageChoices(
  db: Db,
  ownerUserId: string,
  organizationIds: string[],
) {
  await db.delete(coverageChoices).where(eq(coverageChoices.ownerUserId, ownerUserId));
  if (organizationIds.length === 0) return;
  await db.insert(coverageChoices).values(
    organizationIds.map((organizationId, i) => ({
      organizationId,
      ownerUserId,
      position: i + 1,
    })),
  );
}

/** An organization leaves its owner's choice (its ownership moved). */
export async function dropCoverageChoice(db: Db, organizationId: string) {
  await db.delete(coverageChoices).where(eq(coverageChoices.organizationId, organizationId));
}

/**
 * What these organizations use of a limit, all together: for the limits a plan pools over its
 * billing group. Counted as the modules that enforce them count one organization.
 */
export async function pooledUsage(
  db: Db,
  feature: 'invites' | 'postsPerDay' | 'connectedPlatforms',
  organizationIds: string[],
  now: Date,
) {
  if (organizationIds.length === 0) return 0;
  let row: { n: number } | undefined;
  if (feature === 'invites') {
    [row] = await db
      .select({ n: count() })
      .from(members)
      .where(
        and(
          inArray(members.organizationId, organizationIds),
          or(
            eq(members.status, 'ACTIVE'),
            and(eq(members.status, 'PENDING'), gt(members.inviteExpiresAt, now)),
          ),
        ),
      );
  } else if (feature === 'postsPerDay') {
    const startOfDay = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()),
    );
    [row] = await db
      .select({ n: count() })
      .from(posts)
      .where(and(inArray(posts.organizationId, organizationIds), gte(posts.createdAt, startOfDay)));
  } else {
    [row] = await db
      .select({ n: count() })
      .from(integrations)
      .where(
        and(
          inArray(integrations.organizationId, organizationIds),
          eq(integrations.status, 'CONNECTED'),
        ),
      );
  }
  return row?.n ?? 0;
}
