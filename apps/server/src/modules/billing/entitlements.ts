import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { getEntitledPlan } from './billing.service.js';
import type { PlanRow } from '../plans/plans.service.js';
import * as repo from './subscriptions.repository.js';

export type EntitledAction = 'invite' | 'post' | 'connect';

const NO_SUBSCRIPTION: Record<EntitledAction, string> = {
  invite: 'No active subscription found. Please subscribe to a plan.',
  post: 'No active subscription found. Please subscribe to a plan to create posts.',
  connect: 'No active subscription found. Please subscribe to a plan to connect accounts.',
};

/**
 * Gate of docs/product.md#subscription-gate: inviting and creating posts need a TRIALING or ACTIVE subscription.
 * Returns the plan in force so the caller can check its limits.
 */
export async function requireEntitlement(
  db: Db,
  organizationId: string,
  action: EntitledAction,
): Promise<PlanRow> {
  const plan = await getEntitledPlan(db, organizationId);
  if (!plan) throw new AppError('FORBIDDEN', NO_SUBSCRIPTION[action]);
  return plan;
}

type CountedFeature = 'invites' | 'postsPerDay' | 'connectedPlatforms';
const LIMIT_SENTENCES: Record<CountedFeature, (n: number, plan: string) => string> = {
  invites: (n, plan) =>
    `Your ${plan} plan allows ${n} team member${n === 1 ? '' : 's'}, pending invitations included. Remove someone or upgrade your plan to invite more.`,
  postsPerDay: (n, plan) =>
    `Your ${plan} plan allows ${n} post${n === 1 ? '' : 's'} per day. Try again tomorrow or upgrade your plan.`,
  connectedPlatforms: (n, plan) =>
    `Your ${plan} plan allows ${n} connected account${n === 1 ? '' : 's'}. Disconnect one or upgrade your plan.`,
};

/** Refuses one more of `feature` when `current` already reaches the plan's number. */
export function requireCapacity(plan: PlanRow, feature: CountedFeature, current: number) {
  const limit = plan.features[feature];
  if (current >= limit) throw new AppError('FORBIDDEN', LIMIT_SENTENCES[feature](limit, plan.name));
}

/** Members plus live pending invitations: what the `invites` number limits. */
export function countSeats(db: Db, organizationId: string, now = new Date()) {
  return repo.countSeats(db, organizationId, now);
}

/**
 * How many organizations a user may own: the largest `organizations` number among the plans of
 * the organizations they own (1 when none has a plan).
 */
export async function requireOrganizationAllowance(db: Db, userId: string) {
  const owned = await repo.organizationsOwnedBy(db, userId);
  if (owned.length === 0) return;
  let allowed = 1;
  let planName: string | null = null;
  for (const { id } of owned) {
    const plan = await getEntitledPlan(db, id);
    if (plan && (plan.features.organizations > allowed || !planName)) {
      allowed = Math.max(allowed, plan.features.organizations);
      planName = plan.name;
    }
  }
  if (owned.length >= allowed) {
    throw new AppError(
      'FORBIDDEN',
      planName
        ? `Your ${planName} plan allows you to own ${allowed} organization${allowed === 1 ? '' : 's'}. Upgrade your plan to create another.`
        : 'Without a plan you can own one organization. Subscribe to a plan that allows more to create another.',
    );
  }
}
