import {
  ApiKeysResponseSchema,
  CreateApiKeyResponseSchema,
  MessageResponseSchema,
  type CreateApiKeyRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const keysKey = (orgId: string) => ['api-keys', orgId] as const;
const pathOf = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}/api-keys`;

/** `GET …/api-keys` (org:manage): the organization's keys, without their secrets. */
export function useApiKeys(orgId: string) {
  return useQuery({
    queryKey: keysKey(orgId),
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(pathOf(orgId), {
        schema: ApiKeysResponseSchema,
        signal,
      });
      return data.apiKeys;
    },
  });
}

/** `POST …/api-keys`: answers the key itself, which is shown this once. */
export function useCreateApiKey(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateApiKeyRequest) => {
      const { data } = await apiClient.post(pathOf(orgId), body, {
        schema: CreateApiKeyResponseSchema,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysKey(orgId) }),
  });
}

/** `DELETE …/api-keys/{id}`: the key stops working at once. */
export function useRevokeApiKey(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiClient.delete(`${pathOf(orgId)}/${encodeURIComponent(id)}`, {
        schema: MessageResponseSchema,
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysKey(orgId) }),
  });
}
