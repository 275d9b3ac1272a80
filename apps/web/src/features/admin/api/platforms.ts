import {
  PlatformResponseSchema,
  PlatformsResponseSchema,
  PublicMediaUrlResponseSchema,
  type Platform,
  type PublicMediaUrlFinding,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { integrationKeys } from '@/lib/integrations';
import { adminKeys } from './admin-keys';

/** `GET /platforms`: every platform, inactive ones included (operators only). */
export function useAdminPlatforms() {
  return useQuery({
    queryKey: adminKeys.platforms,
    queryFn: async (): Promise<Platform[]> => {
      const { data } = await apiClient.get('/platforms', { schema: PlatformsResponseSchema });
      return data.platforms;
    },
  });
}

/**
 * `GET /platforms/public-media-url`: the server's finding when active networks cannot fetch post
 * media from API_PUBLIC_URL (null when all is well). Refreshed with the list, since switching a
 * network on or off changes it.
 */
export function usePublicMediaUrlFinding() {
  return useQuery({
    queryKey: adminKeys.publicMediaUrl,
    queryFn: async (): Promise<PublicMediaUrlFinding | null> => {
      const { data } = await apiClient.get('/platforms/public-media-url', {
        schema: PublicMediaUrlResponseSchema,
      });
      return data.finding;
    },
  });
}

function useRefreshPlatforms() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.all }),
      // Settings' connect list follows at once.
      queryClient.invalidateQueries({ queryKey: integrationKeys.supported }),
    ]);
}

/** `POST /platforms` with a trimmed name and the constraints object. */
export function useCreatePlatform() {
  const refresh = useRefreshPlatforms();
  return useMutation({
    mutationFn: (platform: { name: string; mediaConstraints: Record<string, unknown> }) =>
      apiClient.post('/platforms', platform, { schema: PlatformResponseSchema }),
    onSuccess: refresh,
  });
}

/** `PUT /platforms/{id}/activate` or `/deactivate`. */
export function useSetPlatformActive() {
  const refresh = useRefreshPlatforms();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) =>
      apiClient.put(
        `/platforms/${encodeURIComponent(id)}/${isActive ? 'activate' : 'deactivate'}`,
        undefined,
        { schema: PlatformResponseSchema },
      ),
    onSuccess: refresh,
  });
}
