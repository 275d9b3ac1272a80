import {
  NotificationPreferencesResponseSchema,
  type NotificationPreferences,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const preferencesKey = (orgId: string) => ['notification-preferences', orgId] as const;
const pathOf = (orgId: string) =>
  `/organizations/${encodeURIComponent(orgId)}/notification-preferences`;

/** `GET /organizations/{id}/notification-preferences`: the caller's own choices here. */
export function useNotificationPreferences(orgId: string) {
  return useQuery({
    queryKey: preferencesKey(orgId),
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(pathOf(orgId), {
        schema: NotificationPreferencesResponseSchema,
        signal,
      });
      return data;
    },
  });
}

/** `PUT /organizations/{id}/notification-preferences`. */
export function useSaveNotificationPreferences(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (preferences: NotificationPreferences) => {
      const { data } = await apiClient.put(
        pathOf(orgId),
        { preferences },
        { schema: NotificationPreferencesResponseSchema },
      );
      return data;
    },
    onSuccess: (data) => queryClient.setQueryData(preferencesKey(orgId), data),
  });
}
