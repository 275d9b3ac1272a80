import { AnalyticsBestTimesResponseSchema, type AnalyticsBestTimes } from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { bestTimeRange } from '../utils/best-time';

/**
 * `GET …/analytics/best-times` for the chosen accounts over the last 90 days, bucketed in the
 * member's zone: where the date picker's hint comes from. Off when `orgId` is null (the member
 * cannot see analytics).
 */
export function useComposerBestTimes(
  orgId: string | null,
  integrationIds: readonly string[],
  zone: string,
) {
  const { from, to } = bestTimeRange(zone);
  const search = new URLSearchParams({ from, to, timezone: zone });
  if (integrationIds.length > 0) search.set('integrationIds', [...integrationIds].sort().join(','));
  const query = search.toString();
  return useQuery({
    queryKey: ['composer-best-times', orgId ?? '', query] as const,
    queryFn: async ({ signal }): Promise<AnalyticsBestTimes> =>
      (
        await apiClient.get(
          `/organizations/${encodeURIComponent(orgId ?? '')}/analytics/best-times?${query}`,
          { schema: AnalyticsBestTimesResponseSchema, signal },
        )
      ).data,
    enabled: Boolean(orgId),
    staleTime: 10 * 60_000,
    retry: false,
  });
}
