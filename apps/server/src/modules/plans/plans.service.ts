import type { Plan, SavePlanRequestSchema } from '@herald/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import * as repo from './plans.repository.js';

type SavePlan = z.output<typeof SavePlanRequestSchema>;

export function toPlanDto(p: repo.PlanRow): Plan {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    price: Number(p.price),
    billingCycle: p.billingCycle,
    stripePriceId: p.stripePriceId,
    providerMetadata: p.providerMetadata ?? null,
    features: p.features,
    status: p.status,
    popular: p.popular,
    trialEligible: p.trialEligible,
    createdAt: p.createdAt.toISOString(),
  };
}

/**
 * Everyone sees the active plans; an operator asking for a page sees every plan, inactive ones
 * included, with the total.
 */
export async function listPlans(
  db: Db,
  opts: { isAdmin: boolean; page?: number; pageSize?: number },
) {
  if (opts.isAdmin && (opts.page || opts.pageSize)) {
    const page = opts.page ?? 1;
    const pageSize = opts.pageSize ?? 20;
    const { rows, totalCount } = await repo.listAllPlans(db, page, pageSize);
    return { plans: rows.map(toPlanDto), meta: { page, pageSize, totalCount } };
  }
  return { plans: (await repo.listActivePlans(db)).map(toPlanDto) };
}

export async function getPlan(db: Db, id: string, isAdmin: boolean): Promise<Plan> {
  const plan = await repo.findPlan(db, id);
  if (!plan || (plan.status !== 'ACTIVE' && !isAdmin))
    throw new AppError('NOT_FOUND', 'This plan does not exist.');
  return toPlanDto(plan);
}

/** The plan an organization may subscribe to or try: it must exist and be on sale. */
export async function getPurchasablePlan(db: Db, id: string) {
  const plan = await repo.findPlan(db, id);
  if (!plan) throw new AppError('NOT_FOUND', 'This plan does not exist.');
  if (plan.status !== 'ACTIVE')
    throw new AppError(
      'VALIDATION_FAILED',
      `The ${plan.name} plan is no longer offered. Choose another plan.`,
    );
  return plan;
}

const toValues = (input: SavePlan): repo.PlanValues => ({
  name: input.name,
  description: input.description,
  price: input.price,
  billingCycle: input.billingCycle,
  stripePriceId: input.stripePriceId,
  providerMetadata: input.providerMetadata,
  features: input.features,
  status: input.status,
  popular: input.popular,
  trialEligible: input.trialEligible,
});

export async function createPlan(db: Db, input: SavePlan) {
  return toPlanDto(await repo.insertPlan(db, toValues(input)));
}

export async function updatePlan(db: Db, id: string, input: SavePlan) {
  const row = await repo.updatePlan(db, id, toValues(input));
  if (!row) throw new AppError('NOT_FOUND', 'This plan does not exist.');
  return toPlanDto(row);
}
