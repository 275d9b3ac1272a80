import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { BILLING_CYCLES, PLAN_STATUSES, PlanSchema } from './plans.js';

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
