import type { Plan, PlanFeatures } from '@herald/contract';

/** Spec §3: prices are monthly, with two decimals. */
export function formatPrice(price: number): string {
  return `$${price.toFixed(2)}/month`;
}

/** "postsPerDay" → "Posts Per Day". */
export function featureLabel(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(' ');
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

export function featureValue(value: PlanFeatures[keyof PlanFeatures]): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** Spec §2: the plan named Basic is the one flagged 'Most Popular'. */
export function isMostPopular(plan: Plan): boolean {
  return plan.name.trim().toLowerCase() === 'basic';
}
