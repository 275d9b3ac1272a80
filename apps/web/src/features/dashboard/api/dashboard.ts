import { DashboardResponseSchema, type DashboardSchema } from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiClient } from '@/lib/api-client';

export type Dashboard = z.infer<typeof DashboardSchema>;

export const dashboardKeys = {
  org: (orgId: string) => ['dashboard', orgId] as const,
};

/** `GET /organizations/{orgId}/dashboard`: the organization's figures in one answer. */
export function useDashboard(orgId: string | null) {
  return useQuery({
    queryKey: dashboardKeys.org(orgId ?? ''),
    queryFn: async (): Promise<Dashboard> => {
      const { data } = await apiClient.get(
        `/organizations/${encodeURIComponent(orgId ?? '')}/dashboard`,
        { schema: DashboardResponseSchema },
      );
      return data;
    },
    enabled: Boolean(orgId),
    // Plans, accounts and members change on other screens (and in other tabs): always current.
    refetchOnMount: 'always',
  });
}
