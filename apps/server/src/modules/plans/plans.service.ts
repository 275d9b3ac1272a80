import type { Plan, SavePlanRequestSchema } from '@herald/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import * as repo from './plans.repository.js';

export type { PlanRow } from './plans.repository.js';

type SavePlan = z.output<typeof SavePlanRequestSchema>;

function toPlanDto(p: repo.PlanRow): Plan {
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
 * Everyone sees the active plans. Asking for a page is asking for the operators' list (every
 * plan, inactive ones included, with the total, optionally searched): only operators may.
 */
export async function listPlans(
  db: Db,
  opts: {
    isAdmin: boolean;
    isSignedIn?: boolean;
    page?: number;
    pageSize?: number;
    search?: string;
  },
) {
  if (opts.page || opts.pageSize) {
    if (!opts.isSignedIn && !opts.isAdmin)
      throw new AppError('UNAUTHENTICATED', 'You are not signed in. Please sign in.');
    if (!opts.isAdmin) throw new AppError('FORBIDDEN', 'This area is for platform operators only.');
    const page = opts.page ?? 1;
    const pageSize = opts.pageSize ?? 20;
    const { rows, totalCount } = await repo.listAllPlans(db, page, pageSize, opts.search);
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

/** A plan as the audit log records it: the fields an operator edits. */
function auditedFields(plan: Plan) {
  const { id: _id, createdAt: _createdAt, ...fields } = plan;
  return fields;
}

/** `POST /plans` (operators): the new plan, audited. */
export async function createPlan(db: Db, input: SavePlan, actor: AuditActor) {
  return db.transaction(async (tx) => {
    const plan = toPlanDto(await repo.insertPlan(tx, toValues(input)));
    await recordAudit(tx, actor, {
      action: 'plan.create',
      target: { type: 'plan', id: plan.id, label: plan.name },
      before: null,
      after: auditedFields(plan),
    });
    return plan;
  });
}

/** `PUT /plans/{id}` (operators): the changed fields are audited. */
export async function updatePlan(db: Db, id: string, input: SavePlan, actor: AuditActor) {
  return db.transaction(async (tx) => {
    const before = await repo.findPlan(tx, id);
    // The back-office form has no pooled limits: an edit that leaves them out keeps them.
    const pooled = input.features.pooled ?? before?.features.pooled;
    const values = toValues({ ...input, features: { ...input.features, pooled } });
    const row = before && (await repo.updatePlan(tx, id, values));
    if (!before || !row) throw new AppError('NOT_FOUND', 'This plan does not exist.');
    const plan = toPlanDto(row);
    await recordAudit(tx, actor, {
      action: 'plan.update',
      target: { type: 'plan', id: plan.id, label: plan.name },
      before: auditedFields(toPlanDto(before)),
      after: auditedFields(plan),
    });
    return plan;
  });
}

/** The plan with this id, active or not, or null (billing reads the plan it records). */
export const findPlan = (db: Db, id: string) => repo.findPlan(db, id);

/** The plan sold at this Stripe price, or null. */
export const findPlanByStripePrice = (db: Db, stripePriceId: string) =>
  repo.findPlanByStripePrice(db, stripePriceId);
