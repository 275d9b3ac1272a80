import { z } from 'zod';
import { successEnvelope } from './envelope.js';

export const BILLING_CYCLES = ['MONTHLY', 'YEARLY'] as const;
export const PLAN_STATUSES = ['ACTIVE', 'INACTIVE'] as const;

const PlanFeaturesSchema = z.object({
  invites: z.number().int().min(1),
  postsPerDay: z.number().int().min(1),
  organizations: z.number().int().min(1),
  connectedPlatforms: z.number().int().min(1),
  prioritySupport: z.boolean(),
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
