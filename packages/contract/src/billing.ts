import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { BILLING_CYCLES, PLAN_STATUSES, PlanSchema, POOLABLE_FEATURES } from './plans.js';

export const TRIAL_DAYS = 7;

export const SUBSCRIPTION_STATUSES = [
  'TRIALING',
  'ACTIVE',
  'PAST_DUE',
  'CANCELED',
  'EXPIRED',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** Statuses that unlock the gated actions (inviting, creating posts). */
export const ENTITLED_STATUSES: readonly SubscriptionStatus[] = ['TRIALING', 'ACTIVE'];

/** Who bills an organization: nobody (trials and free plans) or Stripe. */
export const BILLING_PROVIDERS = ['none', 'stripe'] as const;

export const SubscriptionSchema = z.object({
  id: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  plan: z.object({ id: z.string(), name: z.string() }),
  provider: z.enum(BILLING_PROVIDERS),
  trialUsed: z.boolean(),
  trialStart: z.string().nullable(),
  trialEnd: z.string().nullable(),
  /** ceil(days to trialEnd), at least 0; null when not trialing. */
  trialDaysRemaining: z.number().int().min(0).nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  canceledAt: z.string().nullable(),
  /**
   * Set when the organization has no plan of its own and another organization of its owner pays
   * for it (docs/product.md#billing-groups): the fields above are then that organization's
   * subscription.
   */
  coveredBy: z.object({ organizationId: z.string(), organizationName: z.string() }).nullable(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;
export const SubscriptionResponseSchema = successEnvelope(
  z.object({ subscription: SubscriptionSchema.nullable() }),
);

export const PlanIdRequestSchema = z.object({ planId: z.uuid('Choose a plan.') });
export const SubscribeResponseSchema = successEnvelope(
  z.object({
    subscription: SubscriptionSchema.nullable(),
    /** With Stripe: where to pay. The subscription changes when Stripe confirms. */
    checkoutUrl: z.string().nullable(),
  }),
);
/** Where an organization stands in its owner's billing group, in a word. */
export const COVERAGE_STATES = ['payer', 'covered', 'not_covered', 'own_plan'] as const;
export type CoverageState = (typeof COVERAGE_STATES)[number];

const GroupPlanSchema = z.object({ id: z.string(), name: z.string() });

/**
 * `GET /organizations/{orgId}/billing/group` (billing:view): the billing group as this
 * organization sees it. The paying organization sees every organization of the subscriber; a
 * covered one sees only who pays for it. Null when neither.
 */
export const BillingGroupSchema = z.discriminatedUnion('role', [
  z.object({
    role: z.literal('payer'),
    plan: GroupPlanSchema,
    /** The plan's `organizations`: how many it covers, the paying one included. */
    limit: z.number().int().min(1),
    /** How many it covers now, the paying one included. */
    coveredCount: z.number().int().min(1),
    /** The caller owns the paying organization: only they choose what is covered. */
    isSubscriber: z.boolean(),
    /** The limits the covered organizations share (per organization when absent). */
    pooled: z.array(z.enum(POOLABLE_FEATURES)),
    /** The subscriber's organizations: the paying one, then covered, then the rest. */
    organizations: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        state: z.enum(COVERAGE_STATES),
        createdAt: z.string(),
      }),
    ),
  }),
  z.object({
    role: z.literal('covered'),
    plan: GroupPlanSchema,
    payer: z.object({ id: z.string(), name: z.string() }),
    isSubscriber: z.boolean(),
  }),
]);
export type BillingGroup = z.infer<typeof BillingGroupSchema>;
export const BillingGroupResponseSchema = successEnvelope(
  z.object({ group: BillingGroupSchema.nullable() }),
);
/**
 * `PUT /organizations/{orgId}/billing/group` (the subscriber, on the paying organization): which
 * of their other organizations the plan covers first; the rest of its room goes by creation date.
 */
export const ChooseCoverageRequestSchema = z.object({
  organizationIds: z
    .array(z.uuid({ error: 'Choose organizations you own.' }), {
      error: 'Send the organizations to cover as a list.',
    })
    .max(1000, 'Choose at most 1000 organizations.')
    .transform((ids) => [...new Set(ids)]),
});
export type ChooseCoverageRequest = z.input<typeof ChooseCoverageRequestSchema>;

export const PortalResponseSchema = successEnvelope(z.object({ url: z.string() }));
export const BillingConfigResponseSchema = successEnvelope(
  z.object({ provider: z.enum(BILLING_PROVIDERS), trialDays: z.number() }),
);

const requiredText = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`);
const count = (label: string) =>
  z
    .number({ error: `${label} must be a whole number of at least 1.` })
    .int(`${label} must be a whole number of at least 1.`)
    .min(1, `${label} must be a whole number of at least 1.`);

/** `POST /plans` and `PUT /plans/{id}` (docs/product.md#admin-form-rules). */
export const SavePlanRequestSchema = z.object({
  name: requiredText('Name').max(60, 'Name must be at most 60 characters.'),
  description: requiredText('Description').max(500, 'Description must be at most 500 characters.'),
  price: z
    .number({ error: 'Price must be a number.' })
    .min(0, 'Price cannot be negative.')
    .max(1_000_000, 'Price is too large.')
    .refine((n) => Math.round(n * 100) === n * 100, 'Price can have at most two decimals.'),
  billingCycle: z
    .enum(BILLING_CYCLES, { error: 'Billing cycle must be MONTHLY or YEARLY.' })
    .default('MONTHLY'),
  stripePriceId: z
    .string()
    .trim()
    .nullish()
    .transform((v) => v || null),
  providerMetadata: z
    .object({ planType: z.string().trim().optional() })
    .nullish()
    .transform((v) => v ?? null),
  features: z.object({
    invites: count('Invites'),
    postsPerDay: count('Posts per day'),
    organizations: count('Organizations'),
    connectedPlatforms: count('Connected platforms'),
    prioritySupport: z.boolean({ error: 'Priority support must be true or false.' }),
    /** Left out when editing: the plan keeps the limits it pooled (the back-office form has none). */
    pooled: z
      .array(
        z.enum(POOLABLE_FEATURES, {
          error: `Pooled limits are among ${POOLABLE_FEATURES.join(', ')}.`,
        }),
      )
      .transform((names) => [...new Set(names)])
      .optional(),
  }),
  status: z.enum(PLAN_STATUSES, { error: 'Status must be ACTIVE or INACTIVE.' }).default('ACTIVE'),
  popular: z.boolean().default(false),
  trialEligible: z.boolean().default(true),
});
export type SavePlanRequest = z.input<typeof SavePlanRequestSchema>;

export const PlanResponseSchema = successEnvelope(z.object({ plan: PlanSchema }));
/** Without page or pageSize: the public list. With either: the operators' list (every plan). */
export const PlansQuerySchema = z.object({
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
  /** Operators' list only: words to look for in names and descriptions. */
  search: z
    .string()
    .trim()
    .max(200, 'Search for at most 200 characters.')
    .optional()
    .transform((v) => v || undefined),
});
export const PlansListResponseSchema = z.object({
  status: z.literal('success'),
  data: z.object({ plans: z.array(PlanSchema) }),
  meta: z.object({ page: z.number(), pageSize: z.number(), totalCount: z.number() }).optional(),
});
export const PlanParamsSchema = z.object({ id: z.uuid('The plan id is not valid.') });
