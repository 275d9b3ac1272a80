import { BlueskyVideoLimitsResponseSchema } from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

/**
 * `GET /organizations/{orgId}/integrations/{id}/bluesky/video-limits`: the videos and bytes
 * Bluesky's video service lets this account upload today, read when a video is chosen for it.
 */
export function useBlueskyVideoLimits(orgId: string, integrationId: string) {
  return useQuery({
    queryKey: ['bluesky-video-limits', orgId, integrationId] as const,
    queryFn: async () =>
      (
        await apiClient.get(
          `/organizations/${orgId}/integrations/${integrationId}/bluesky/video-limits`,
          { schema: BlueskyVideoLimitsResponseSchema },
        )
      ).data.limits,
    staleTime: 60_000,
    retry: false,
  });
}
