import { z } from 'zod';
import { successEnvelope } from './envelope.js';

export const BILLING_CYCLES = ['MONTHLY', 'YEARLY'] as const;
export const PLAN_STATUSES = ['ACTIVE', 'INACTIVE'] as const;

/**
 * The limits a billing group may share (docs/product.md#billing-groups). Each is counted per
 * organization unless the plan lists it in `pooled`: then the usage of every organization the
 * plan covers counts against one number.
 */
export const POOLABLE_FEATURES = ['invites', 'postsPerDay', 'connectedPlatforms'] as const;
export type PoolableFeature = (typeof POOLABLE_FEATURES)[number];

const PlanFeaturesSchema = z.object({
  invites: z.number().int().min(1),
  postsPerDay: z.number().int().min(1),
  /** How many organizations the subscriber owns that the plan covers, the paying one included. */
  organizations: z.number().int().min(1),
  connectedPlatforms: z.number().int().min(1),
  prioritySupport: z.boolean(),
  /**
   * Megabytes the media library of each organization may hold (docs/media-library.md); absent:
   * DEFAULT_MEDIA_STORAGE_MB.
   */
  mediaStorageMb: z.number().int().min(1).optional(),
  /** Limits shared by the covered organizations; absent or empty: every limit is per organization. */
  pooled: z.array(z.enum(POOLABLE_FEATURES)).optional(),
});
export type PlanFeatures = z.infer<typeof PlanFeaturesSchema>;

export const PlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.number().min(0),
  billingCycle: z.enum(BILLING_CYCLES),
  stripePriceId: z.string().nullable(),
  providerMetadata: z.object({ planType: z.string().optional() }).nullable(),
  features: PlanFeaturesSchema,
  status: z.enum(PLAN_STATUSES),
  popular: z.boolean(),
  trialEligible: z.boolean(),
  createdAt: z.string(),
});
export type Plan = z.infer<typeof PlanSchema>;

export const PlansResponseSchema = successEnvelope(z.object({ plans: z.array(PlanSchema) }));
