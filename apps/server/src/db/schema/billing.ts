/**
 * Plans, each organization's subscription, the organizations a subscriber chose to cover, and the
 * Stripe events already handled.
 */
import {
  BILLING_CYCLES,
  BILLING_PROVIDERS,
  PLAN_STATUSES,
  SUBSCRIPTION_STATUSES,
} from '@herald/contract';
import {
  boolean,
  integer,
  numeric,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

export interface PlanFeaturesColumn {
  invites: number;
  postsPerDay: number;
  organizations: number;
  connectedPlatforms: number;
  prioritySupport: boolean;
  /** Megabytes each organization's media library may hold; absent: DEFAULT_MEDIA_STORAGE_MB. */
  mediaStorageMb?: number;
  /** Limits the covered organizations share; absent: every limit is per organization. */
  pooled?: Array<'invites' | 'postsPerDay' | 'connectedPlatforms'>;
}

export const plans = pgTable('plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  /** Monthly price in the currency's main unit, two decimals. */
  price: numeric('price', { precision: 10, scale: 2, mode: 'number' }).notNull(),
  billingCycle: text('billing_cycle', { enum: BILLING_CYCLES }).notNull().default('MONTHLY'),
  stripePriceId: text('stripe_price_id'),
  providerMetadata: jsonb('provider_metadata').$type<{ planType?: string }>(),
  features: jsonb('features').$type<PlanFeaturesColumn>().notNull(),
  status: text('status', { enum: PLAN_STATUSES }).notNull().default('ACTIVE'),
  popular: boolean('popular').notNull().default(false),
  trialEligible: boolean('trial_eligible').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One per organization, updated in place through its life (so "one trial ever" is a column). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'restrict' }),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    provider: text('provider', { enum: BILLING_PROVIDERS }).notNull(),
    trialUsed: boolean('trial_used').notNull().default(false),
    trialStart: timestamp('trial_start', { withTimezone: true }),
    trialEnd: timestamp('trial_end', { withTimezone: true }),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_org_key').on(t.organizationId),
    index('subscriptions_status_idx').on(t.status, t.trialEnd),
    uniqueIndex('subscriptions_stripe_customer_key').on(t.stripeCustomerId),
  ],
);

/** Stripe events already processed: a replayed event changes nothing. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The organizations a subscriber chose to cover first when they own more than their plan covers
 * (docs/product.md#billing-groups); the rest of the room goes by creation date. A choice counts
 * only while its chooser still owns the organization, so a transfer of ownership drops it.
 */
export const coverageChoices = pgTable(
  'coverage_choices',
  {
    organizationId: uuid('organization_id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Order of the choice, from 1: earlier ones are covered first. */
    position: integer('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('coverage_choices_owner_idx').on(t.ownerUserId)],
);
