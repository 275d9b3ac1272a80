import type { Plan } from '@herald/contract';

/** docs/product.md#landing-page: the plan named Basic is the one flagged 'Most Popular'. */
export function isMostPopular(plan: Plan): boolean {
  return plan.name.trim().toLowerCase() === 'basic';
}
