import {
  EmptySuccessSchema,
  EvergreenCollectionDetailResponseSchema,
  EvergreenCollectionListResponseSchema,
  EvergreenProjectionResponseSchema,
  PostRepeatResponseSchema,
  type CreateEvergreenCollectionRequest,
  type PutPostRepeatRequest,
  type UpdateEvergreenCollectionRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

/** docs/evergreen.md: evergreen collections, the calendar's projection, and repeating posts. */
const collectionsKey = (orgId: string) => ['evergreen', orgId] as const;
const base = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}/evergreen-collections`;
const one = (orgId: string, id: string) => `${base(orgId)}/${encodeURIComponent(id)}`;
const repeatPath = (orgId: string, postId: string) =>
  `/organizations/${encodeURIComponent(orgId)}/posts/${encodeURIComponent(postId)}/repeat`;

export function useEvergreenCollections(orgId: string) {
  return useQuery({
    queryKey: collectionsKey(orgId),
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(base(orgId), {
        schema: EvergreenCollectionListResponseSchema,
        signal,
      });
      return data.collections;
    },
  });
}

export function useEvergreenCollection(orgId: string, id: string | null) {
  return useQuery({
    queryKey: [...collectionsKey(orgId), id] as const,
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(one(orgId, id!), {
        schema: EvergreenCollectionDetailResponseSchema,
        signal,
      });
      return data;
    },
    enabled: Boolean(id),
  });
}

/** Every change refreshes the lists and the calendar's projection. */
function useEvergreenMutation<T>(orgId: string, run: (body: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => client.invalidateQueries({ queryKey: collectionsKey(orgId) }),
  });
}

export function useCreateCollection(orgId: string) {
  return useEvergreenMutation(orgId, async (body: CreateEvergreenCollectionRequest) => {
    const { data } = await apiClient.post(base(orgId), body, {
      schema: EvergreenCollectionDetailResponseSchema,
    });
    return data;
  });
}

export function useUpdateCollection(orgId: string) {
  return useEvergreenMutation(
    orgId,
    async ({ id, ...body }: UpdateEvergreenCollectionRequest & { id: string }) => {
      const { data } = await apiClient.patch(one(orgId, id), body, {
        schema: EvergreenCollectionDetailResponseSchema,
      });
      return data;
    },
  );
}

export function useDeleteCollection(orgId: string) {
  return useEvergreenMutation(orgId, async (id: string) => {
    await apiClient.delete(one(orgId, id), { schema: EmptySuccessSchema });
  });
}

export function useAddEvergreenPosts(orgId: string) {
  return useEvergreenMutation(orgId, async ({ id, postIds }: { id: string; postIds: string[] }) => {
    const { data } = await apiClient.post(
      `${one(orgId, id)}/posts`,
      { postIds },
      { schema: EvergreenCollectionDetailResponseSchema },
    );
    return data;
  });
}

export function useRemoveEvergreenPost(orgId: string) {
  return useEvergreenMutation(orgId, async ({ id, postId }: { id: string; postId: string }) => {
    await apiClient.delete(`${one(orgId, id)}/posts/${encodeURIComponent(postId)}`, {
      schema: EvergreenCollectionDetailResponseSchema,
    });
  });
}

/** `GET …/evergreen-collections/projection`: what the collections will put in empty slots. */
export function useEvergreenProjection(orgId: string | null, from: string, to: string) {
  return useQuery({
    queryKey: ['evergreen', orgId, 'projection', from, to] as const,
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams({ from, to });
      const { data } = await apiClient.get(`${base(orgId!)}/projection?${query}`, {
        schema: EvergreenProjectionResponseSchema,
        signal,
      });
      return data.fills;
    },
    enabled: Boolean(orgId),
  });
}

export function usePostRepeat(orgId: string, postId: string | null) {
  return useQuery({
    queryKey: ['repeat', orgId, postId] as const,
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(repeatPath(orgId, postId!), {
        schema: PostRepeatResponseSchema,
        signal,
      });
      return data.repeat;
    },
    enabled: Boolean(postId),
  });
}

export function useSaveRepeat(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ postId, ...body }: PutPostRepeatRequest & { postId: string }) => {
      const { data } = await apiClient.put(repeatPath(orgId, postId), body, {
        schema: PostRepeatResponseSchema,
      });
      return data.repeat;
    },
    onSuccess: (_, { postId }) => client.invalidateQueries({ queryKey: ['repeat', orgId, postId] }),
  });
}

export function useStopRepeat(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (postId: string) => {
      await apiClient.delete(repeatPath(orgId, postId), { schema: EmptySuccessSchema });
    },
    onSuccess: (_, postId) => client.invalidateQueries({ queryKey: ['repeat', orgId, postId] }),
  });
}
