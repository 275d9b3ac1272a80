import {
  ADMIN_PAGE_SIZE,
  PlanResponseSchema,
  PlansListResponseSchema,
  type SavePlanRequest,
} from '@herald/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { plansQueryKey } from '@/lib/plans';
import { adminKeys, queryString } from './admin-keys';

/** `GET /plans?page=&pageSize=10&search=`: every plan, active or not (operators only). */
export function useAdminPlans(search: string, page: number) {
  return useQuery({
    queryKey: adminKeys.plans(search, page),
    queryFn: async () => {
      const answer = await apiClient.get(
        `/plans${queryString({ search, page, pageSize: ADMIN_PAGE_SIZE })}`,
        { schema: PlansListResponseSchema },
      );
      return {
        plans: answer.data.plans,
        totalCount: answer.meta?.totalCount ?? answer.data.plans.length,
      };
    },
    placeholderData: keepPreviousData,
  });
}

/** `POST /plans` without an id, `PUT /plans/{id}` with one. */
export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, plan }: { id: string | null; plan: SavePlanRequest }) =>
      id
        ? apiClient.put(`/plans/${encodeURIComponent(id)}`, plan, { schema: PlanResponseSchema })
        : apiClient.post('/plans', plan, { schema: PlanResponseSchema }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.all }),
        // The landing and pricing pages show the new offer at once.
        queryClient.invalidateQueries({ queryKey: plansQueryKey }),
      ]),
  });
}
