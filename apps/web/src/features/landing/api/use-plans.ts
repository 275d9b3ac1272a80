import { PlansResponseSchema, type Plan } from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const plansQueryKey = ['plans', 'public'] as const;

/** `GET /plans`: the plans offered to everyone, cheapest first. */
export function usePlans() {
  return useQuery({
    queryKey: plansQueryKey,
    queryFn: async (): Promise<Plan[]> => {
      const { data } = await apiClient.get('/plans', { schema: PlansResponseSchema });
      return data.plans
        .filter((plan) => plan.status === 'ACTIVE')
        .sort((a, b) => a.price - b.price);
    },
    staleTime: 5 * 60_000,
  });
}
