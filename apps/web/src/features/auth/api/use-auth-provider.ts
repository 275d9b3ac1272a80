import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const authProviderQueryKey = ['auth', 'provider'] as const;

/** `GET /auth/provider`: which identity provider the sign-in button leads to. */
export function useAuthProvider() {
  return useQuery({
    queryKey: authProviderQueryKey,
    queryFn: async () => {
      const { data } = await apiClient.get('/auth/provider', {
        schema: () => import('@/lib/lazy-schemas').then((m) => m.AuthProviderResponseSchema),
        skipAuthRefresh: true,
      });
      return data;
    },
    // The provider only changes with a server restart; a failure keeps the generic label.
    staleTime: Infinity,
    retry: false,
  });
}
