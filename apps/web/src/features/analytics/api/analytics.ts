import {
  AnalyticsBestTimesResponseSchema,
  AnalyticsOverviewResponseSchema,
  AnalyticsRefreshRefusalSchema,
  AnalyticsRefreshResponseSchema,
  type AnalyticsBestTimes,
  AnalyticsSettingsResponseSchema,
  type AnalyticsOverview,
  type AnalyticsRefreshResult,
  type AnalyticsSettings,
  LinkClicksResponseSchema,
  type LinkClicks,
  type TOP_POSTS_SORTS,
  type UpdateAnalyticsSettingsRequest,
} from '@herald/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';

export type { AnalyticsBestTimes, AnalyticsOverview, AnalyticsRefreshResult };
export type TopPostsSort = (typeof TOP_POSTS_SORTS)[number];

/**
 * What the screen asks for: a range of days of `timezone` (the zone that applies) and optional
 * network/account filters.
 */
export interface AnalyticsQuery {
  from: string;
  to: string;
  timezone: string;
  platformIds: string[];
  integrationIds: string[];
  sort: TopPostsSort;
}

export const analyticsKeys = {
  overview: (orgId: string, q: AnalyticsQuery) => ['analytics', orgId, 'overview', q] as const,
  bestTimes: (orgId: string, search: string) => ['analytics', orgId, 'best-times', search] as const,
};

/** The query string of an overview request. */
export function overviewSearch(q: AnalyticsQuery): string {
  const search = new URLSearchParams({
    from: q.from,
    to: q.to,
    timezone: q.timezone,
    sort: q.sort,
  });
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

/** The query string of the CSV export: the range and filters of the screen. */
export function exportSearch(q: AnalyticsQuery): string {
  const search = new URLSearchParams(overviewSearch(q));
  search.delete('sort');
  return search.toString();
}

/** The query string of the best-times request: the range, its zone and the filters. */
export function bestTimesSearch(q: AnalyticsQuery): string {
  const search = new URLSearchParams(overviewSearch(q));
  search.delete('sort');
  return search.toString();
}

/** `GET /organizations/{orgId}/analytics/best-times`: the weekday × hour map in `q.timezone`. */
export function useBestTimes(orgId: string | null, q: AnalyticsQuery) {
  const search = bestTimesSearch(q);
  return useQuery({
    queryKey: analyticsKeys.bestTimes(orgId ?? '', search),
    queryFn: async ({ signal }): Promise<AnalyticsBestTimes> => {
      const { data } = await apiClient.get(
        `/organizations/${encodeURIComponent(orgId ?? '')}/analytics/best-times?${search}`,
        { schema: AnalyticsBestTimesResponseSchema, signal },
      );
      return data;
    },
    enabled: Boolean(orgId),
    placeholderData: keepPreviousData,
  });
}

export const analyticsSettingsKeys = {
  org: (orgId: string) => ['analytics', orgId, 'settings'] as const,
};

/** `GET /organizations/{orgId}/analytics/settings`: the X switch, budget and this month's reads. */
export function useAnalyticsSettings(orgId: string | null) {
  return useQuery({
    queryKey: analyticsSettingsKeys.org(orgId ?? ''),
    queryFn: async ({ signal }): Promise<AnalyticsSettings> => {
      const { data } = await apiClient.get(
        `/organizations/${encodeURIComponent(orgId ?? '')}/analytics/settings`,
        { schema: AnalyticsSettingsResponseSchema, signal },
      );
      return data;
    },
    enabled: Boolean(orgId),
  });
}

/** `PUT /organizations/{orgId}/analytics/settings` (needs org:manage). */
export function useUpdateAnalyticsSettings(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateAnalyticsSettingsRequest) => {
      const { data } = await apiClient.put(
        `/organizations/${encodeURIComponent(orgId)}/analytics/settings`,
        body,
        { schema: AnalyticsSettingsResponseSchema },
      );
      return data;
    },
    onSuccess: (data) => queryClient.setQueryData(analyticsSettingsKeys.org(orgId), data),
  });
}

/**
 * `POST /organizations/{orgId}/analytics/refresh` (needs org:manage): reads the networks now.
 * Afterwards every analytics answer of the organization is asked again (the figures changed,
 * and the settings carry the next allowed refresh). A refusal during the cooldown records its
 * time in the settings, so the button shows it even when the page missed the other refresh.
 */
export function useRefreshMetrics(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<AnalyticsRefreshResult> => {
      const { data } = await apiClient.post(
        `/organizations/${encodeURIComponent(orgId)}/analytics/refresh`,
        undefined,
        { schema: AnalyticsRefreshResponseSchema },
      );
      return data;
    },
    onSuccess: (data) => {
      queryClient.setQueryData<AnalyticsSettings>(analyticsSettingsKeys.org(orgId), (old) =>
        old ? { ...old, refreshedAt: data.refreshedAt, nextRefreshAt: data.nextAllowedAt } : old,
      );
      return queryClient.invalidateQueries({ queryKey: ['analytics', orgId] });
    },
    onError: (error) => {
      const refusal = refreshRefusal(error);
      if (refusal)
        queryClient.setQueryData<AnalyticsSettings>(analyticsSettingsKeys.org(orgId), (old) =>
          old ? { ...old, nextRefreshAt: refusal.nextAllowedAt } : old,
        );
    },
  });
}

/** The cooldown's end when a refresh was refused for coming too soon (429), else null. */
export function refreshRefusal(error: unknown) {
  if (!isApiError(error) || error.status !== 429) return null;
  const details = AnalyticsRefreshRefusalSchema.safeParse(error.details);
  return details.success ? details.data : null;
}

/**
 * `GET /organizations/{orgId}/analytics/link-clicks`: the clicks on the short links of the posts
 * published in the range, per post and account (docs/analytics.md#short-links).
 */
export function useLinkClicks(orgId: string | null, q: AnalyticsQuery) {
  const search = exportSearch(q);
  return useQuery({
    queryKey: ['analytics', orgId ?? '', 'link-clicks', search] as const,
    queryFn: async ({ signal }): Promise<LinkClicks> => {
      const { data } = await apiClient.get(
        `/organizations/${encodeURIComponent(orgId ?? '')}/analytics/link-clicks?${search}`,
        { schema: LinkClicksResponseSchema, signal },
      );
      return data;
    },
    enabled: Boolean(orgId),
    placeholderData: keepPreviousData,
  });
}
