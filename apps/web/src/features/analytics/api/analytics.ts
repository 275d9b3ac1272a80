import {
  AnalyticsOverviewResponseSchema,
  type AnalyticsOverview,
  type TOP_POSTS_SORTS,
} from '@herald/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export type { AnalyticsOverview };
export type TopPostsSort = (typeof TOP_POSTS_SORTS)[number];

/** What the screen asks for: a range of UTC days and optional network/account filters. */
export interface AnalyticsQuery {
  from: string;
  to: string;
  platformIds: string[];
  integrationIds: string[];
  sort: TopPostsSort;
}

export const analyticsKeys = {
  overview: (orgId: string, q: AnalyticsQuery) => ['analytics', orgId, 'overview', q] as const,
};

/** The query string of an overview request. */
export function overviewSearch(q: AnalyticsQuery): string {
  const search = new URLSearchParams({ from: q.from, to: q.to, sort: q.sort });
  if (q.platformIds.length) search.set('platformIds', q.platformIds.join(','));
  if (q.integrationIds.length) search.set('integrationIds', q.integrationIds.join(','));
  return search.toString();
}

/** `GET /organizations/{orgId}/analytics/overview`: the whole screen in one answer. */
export function useAnalyticsOverview(orgId: string | null, q: AnalyticsQuery) {
  return useQuery({
    queryKey: analyticsKeys.overview(orgId ?? '', q),
    queryFn: async ({ signal }): Promise<AnalyticsOverview> => {
      const { data } = await apiClient.get(
        `/organizations/${encodeURIComponent(orgId ?? '')}/analytics/overview?${overviewSearch(q)}`,
        { schema: AnalyticsOverviewResponseSchema, signal },
      );
      return data;
    },
    enabled: Boolean(orgId),
    // Changing the range keeps the last picture on screen until the new one arrives.
    placeholderData: keepPreviousData,
  });
}
