import {
  NotificationPreferencesResponseSchema,
  NotificationWebhookResponseSchema,
  NotificationWebhookTestResponseSchema,
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

const webhookKey = (orgId: string) => ['notification-webhook', orgId] as const;
const webhookPath = (orgId: string) =>
  `/organizations/${encodeURIComponent(orgId)}/notification-webhook`;

/** `GET /organizations/{id}/notification-webhook` (org:manage): only a hint of the URL. */
export function useNotificationWebhook(orgId: string) {
  return useQuery({
    queryKey: webhookKey(orgId),
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(webhookPath(orgId), {
        schema: NotificationWebhookResponseSchema,
        signal,
      });
      return data.webhook;
    },
  });
}

/** `PUT` a new URL, or `DELETE` (url null) the organization's webhook. */
export function useSaveNotificationWebhook(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (url: string | null) => {
      const { data } =
        url === null
          ? await apiClient.delete(webhookPath(orgId), {
              schema: NotificationWebhookResponseSchema,
            })
          : await apiClient.put(
              webhookPath(orgId),
              { url },
              { schema: NotificationWebhookResponseSchema },
            );
      return data.webhook;
    },
    onSuccess: (webhook) => queryClient.setQueryData(webhookKey(orgId), webhook),
  });
}

/** `POST …/notification-webhook/test`: whether the webhook took a sample message. */
export function useTestNotificationWebhook(orgId: string) {
  return useMutation({
    mutationFn: async () => {
      const { data } = await apiClient.post(`${webhookPath(orgId)}/test`, undefined, {
        schema: NotificationWebhookTestResponseSchema,
      });
      return data;
    },
  });
}
