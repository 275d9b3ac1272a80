import type { PoolableFeature } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { listPlans } from '../plans/plans.service.js';
import type { PlanRow } from '../plans/plans.service.js';
import { loadBillingGroup } from './billing-group.js';
import { findEntitlement } from './billing.service.js';
import * as repo from './subscriptions.repository.js';

export type EntitledAction = 'invite' | 'post' | 'connect';

const NO_SUBSCRIPTION: Record<EntitledAction, string> = {
  invite: 'No active subscription found. Please subscribe to a plan.',
  post: 'No active subscription found. Please subscribe to a plan to create posts.',
  connect: 'No active subscription found. Please subscribe to a plan to connect accounts.',
};

/**
 * The plan in force, and for each limit it pools over its billing group what the group's other
 * organizations already use (docs/product.md#billing-groups). Limits are per organization unless
 * the plan lists them in `features.pooled`.
 */
export type EntitledPlan = PlanRow & { pooledUsage?: Partial<Record<PoolableFeature, number>> };

/**
 * Gate of docs/product.md#subscription-gate: inviting and creating posts need a TRIALING or ACTIVE
 * subscription, the organization's own or the one of the organization that covers it. Returns
 * the plan in force so the caller can check its limits.
 */
export async function requireEntitlement(
  db: Db,
  organizationId: string,
  action: EntitledAction,
  now = new Date(),
): Promise<EntitledPlan> {
  const found = await findEntitlement(db, organizationId, now);
  if (!found.plan) throw new AppError('FORBIDDEN', NO_SUBSCRIPTION[action]);
  const pooled = found.plan.features.pooled ?? [];
  if (pooled.length === 0) return found.plan;
  // The group the plan covers: this organization's payer's, or its own when it pays.
  const { group } = await loadBillingGroup(db, { organizationId });
  const payerId = found.payer?.id ?? organizationId;
  if (!group || group.payer.id !== payerId) return found.plan;
  const others = [group.payer, ...group.covered]
    .map((o) => o.id)
    .filter((id) => id !== organizationId);
  const pooledUsage: Partial<Record<PoolableFeature, number>> = {};
  for (const feature of pooled) {
    pooledUsage[feature] = await repo.pooledUsage(db, feature, others, now);
  }
  return { ...found.plan, pooledUsage };
}

type CountedFeature = PoolableFeature;
const LIMIT_SENTENCES: Record<CountedFeature, (n: number, plan: string) => string> = {
  invites: (n, plan) =>
    `Your ${plan} plan allows ${n} team member${n === 1 ? '' : 's'}, pending invitations included. Remove someone or upgrade your plan to invite more.`,
  postsPerDay: (n, plan) =>
    `Your ${plan} plan allows ${n} post${n === 1 ? '' : 's'} per day. Try again tomorrow or upgrade your plan.`,
  connectedPlatforms: (n, plan) =>
    `Your ${plan} plan allows ${n} connected account${n === 1 ? '' : 's'}. Disconnect one or upgrade your plan.`,
};
const POOLED_SENTENCES: Record<CountedFeature, (n: number, plan: string) => string> = {
  invites: (n, plan) =>
    `Your ${plan} plan allows ${n} team member${n === 1 ? '' : 's'} across the organizations it covers, pending invitations included. Remove someone or upgrade your plan to invite more.`,
  postsPerDay: (n, plan) =>
    `Your ${plan} plan allows ${n} post${n === 1 ? '' : 's'} per day across the organizations it covers. Try again tomorrow or upgrade your plan.`,
  connectedPlatforms: (n, plan) =>
    `Your ${plan} plan allows ${n} connected account${n === 1 ? '' : 's'} across the organizations it covers. Disconnect one or upgrade your plan.`,
};

/**
 * Refuses one more of `feature` when `current` (this organization's count) already reaches the
 * plan's number; for a pooled limit, with what the rest of the billing group uses added.
 */
export function requireCapacity(plan: EntitledPlan, feature: CountedFeature, current: number) {
  const limit = plan.features[feature];
  const elsewhere = plan.pooledUsage?.[feature];
  if (current + (elsewhere ?? 0) >= limit) {
    const sentences = elsewhere === undefined ? LIMIT_SENTENCES : POOLED_SENTENCES;
    throw new AppError('FORBIDDEN', sentences[feature](limit, plan.name));
  }
}

/** Members plus live pending invitations: what the `invites` number limits. */
export function countSeats(db: Db, organizationId: string, now = new Date()) {
  return repo.countSeats(db, organizationId, now);
}

const organizationsWord = (n: number) => `${n} organization${n === 1 ? '' : 's'}`;

/**
 * Whether the user may create another organization (docs/product.md#billing-groups): their
 * first always; then only one their plan will cover, so the new one never starts without a plan
 * (nor with a trial of its own: one per owner). The refusal names the plan that would cover it.
 */
export async function requireOrganizationAllowance(db: Db, userId: string) {
  const { organizations, group } = await loadBillingGroup(db, { ownerUserId: userId });
  if (organizations.length === 0) return;
  if (!group) {
    throw new AppError(
      'FORBIDDEN',
      'Without a plan you can own one organization. Subscribe to a plan that allows more to create another.',
    );
  }
  const inGroup = 1 + group.covered.length + group.uncovered.length;
  if (inGroup < group.limit) return;
  const { plans } = await listPlans(db, { isAdmin: false });
  const next = plans
    .filter((p) => p.features.organizations > group.limit)
    .sort((a, b) => a.features.organizations - b.features.organizations || a.price - b.price)[0];
  const covers = `Your ${group.plan.name} plan covers ${organizationsWord(group.limit)} and you own ${inGroup}`;
  throw new AppError(
    'FORBIDDEN',
    next
      ? `${covers}. Upgrade to ${next.name} to add more, or transfer one you no longer manage to one of its Admins.`
      : `${covers}, the most any plan covers. Transfer one you no longer manage to one of its Admins to add another.`,
  );
}
