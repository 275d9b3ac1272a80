import {
  EmptySuccessSchema,
  WebhookDeliveryListResponseSchema,
  WebhookDeliveryResponseSchema,
  WebhookEndpointListResponseSchema,
  WebhookEndpointResponseSchema,
  WebhookEndpointWithSecretResponseSchema,
  type CreateWebhookEndpointRequest,
  type UpdateWebhookEndpointRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const endpointsKey = (orgId: string) => ['webhook-endpoints', orgId] as const;
const deliveriesKey = (orgId: string, endpointId: string) =>
  ['webhook-deliveries', orgId, endpointId] as const;
const base = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}/webhooks`;
const one = (orgId: string, endpointId: string) =>
  `${base(orgId)}/${encodeURIComponent(endpointId)}`;

/** `GET /organizations/{id}/webhooks` (org:manage): the endpoints, never their secrets. */
export function useWebhookEndpoints(orgId: string) {
  return useQuery({
    queryKey: endpointsKey(orgId),
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(base(orgId), {
        schema: WebhookEndpointListResponseSchema,
        signal,
      });
      return data.endpoints;
    },
  });
}

/** The endpoint's latest deliveries with their attempts. */
export function useWebhookDeliveries(orgId: string, endpointId: string) {
  return useQuery({
    queryKey: deliveriesKey(orgId, endpointId),
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(`${one(orgId, endpointId)}/deliveries`, {
        schema: WebhookDeliveryListResponseSchema,
        signal,
      });
      return data.deliveries;
    },
  });
}

/** `POST`: the new endpoint and its signing secret, answered this once. */
export function useCreateWebhookEndpoint(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateWebhookEndpointRequest) => {
      const { data } = await apiClient.post(base(orgId), body, {
        schema: WebhookEndpointWithSecretResponseSchema,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(orgId) }),
  });
}

export function useUpdateWebhookEndpoint(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: UpdateWebhookEndpointRequest & { id: string }) => {
      const { data } = await apiClient.patch(one(orgId, id), body, {
        schema: WebhookEndpointResponseSchema,
      });
      return data.endpoint;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(orgId) }),
  });
}

export function useDeleteWebhookEndpoint(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiClient.delete(one(orgId, id), { schema: EmptySuccessSchema });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(orgId) }),
  });
}

/** A new secret, answered once; the old one keeps signing for 24 hours. */
export function useRotateWebhookSecret(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { data } = await apiClient.post(`${one(orgId, id)}/rotate-secret`, undefined, {
        schema: WebhookEndpointWithSecretResponseSchema,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(orgId) }),
  });
}

/** Sends `webhook.test` now; the log then shows it. */
export function useSendWebhookTest(orgId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await apiClient.post(`${one(orgId, endpointId)}/test`, undefined, {
        schema: WebhookDeliveryResponseSchema,
      });
      return data.delivery;
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(orgId, endpointId) });
      void queryClient.invalidateQueries({ queryKey: endpointsKey(orgId) });
    },
  });
}

export function useRedeliverWebhook(orgId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (deliveryId: string) => {
      const { data } = await apiClient.post(
        `${one(orgId, endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
        undefined,
        { schema: WebhookDeliveryResponseSchema },
      );
      return data.delivery;
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(orgId, endpointId) });
      void queryClient.invalidateQueries({ queryKey: endpointsKey(orgId) });
    },
  });
}
