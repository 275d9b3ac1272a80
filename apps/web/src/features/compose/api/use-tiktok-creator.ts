import { TikTokCreatorInfoResponseSchema } from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const tiktokCreatorKey = (orgId: string, integrationId: string) =>
  ['tiktok-creator', orgId, integrationId] as const;

/**
 * `GET /organizations/{orgId}/integrations/{id}/tiktok/creator-info`: what TikTok lets this
 * creator post now, read when the account is chosen (TikTok's guidelines ask for a fresh read).
 */
export function useTikTokCreator(orgId: string, integrationId: string) {
  return useQuery({
    queryKey: tiktokCreatorKey(orgId, integrationId),
    queryFn: async () =>
      (
        await apiClient.get(
          `/organizations/${orgId}/integrations/${integrationId}/tiktok/creator-info`,
          { schema: TikTokCreatorInfoResponseSchema },
        )
      ).data.creator,
    staleTime: 60_000,
    retry: false,
  });
}
