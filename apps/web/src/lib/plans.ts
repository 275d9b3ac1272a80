import type { Plan, PlanFeatures } from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from './api-client';

/**
 * The public plan list and its display rules. The landing page and the pricing page both show
 * plans, so they live here: features may not import each other.
 */
export const plansQueryKey = ['plans', 'public'] as const;

/** `GET /plans`: the plans offered to everyone, cheapest first. */
export function usePlans() {
  return useQuery({
    queryKey: plansQueryKey,
    queryFn: async (): Promise<Plan[]> => {
      const { data } = await apiClient.get('/plans', {
        schema: () => import('./lazy-schemas').then((m) => m.PlansResponseSchema),
      });
      return data.plans
        .filter((plan) => plan.status === 'ACTIVE')
        .sort((a, b) => a.price - b.price);
    },
    staleTime: 5 * 60_000,
  });
}

/** docs/product.md#plan-and-subscription: prices are monthly, with two decimals. */
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

/**
 * A plan's features as display rows, e.g. { label: 'Priority Support', value: 'No', included: false }.
 * `included` is false for a feature the plan does not have (a "No"), so it is not shown as ticked.
 */
export function featureRows(
  plan: Plan,
): Array<{ key: string; label: string; value: string; included: boolean }> {
  // docs/product.md#billing-groups: a pooled limit is one number for all covered organizations.
  const pooled = new Set<string>(plan.features.pooled ?? []);
  return Object.entries(plan.features)
    .filter(([key]) => key !== 'pooled')
    .map(([key, value]) => ({
      key,
      label: featureLabel(key),
      value: featureValue(value) + (pooled.has(key) ? ' (shared by its organizations)' : ''),
      included: value !== false && value !== 0,
    }));
}
