import { NetworkSetupResponseSchema } from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { adminKeys, queryString } from './admin-keys';

/**
 * `GET /admin/network-setup[?live=true]`: each network's setup findings; with `live`, also what
 * each network's token endpoint says about Herald's credentials (asked only when the operator
 * presses the button, and not again on window focus).
 */
export function useNetworkSetup(live: boolean) {
  return useQuery({
    queryKey: adminKeys.networkSetup(live),
    queryFn: async () =>
      (
        await apiClient.get(
          `/admin/network-setup${queryString({ live: live ? 'true' : undefined })}`,
          {
            schema: NetworkSetupResponseSchema,
          },
        )
      ).data,
    refetchOnWindowFocus: !live,
  });
}
