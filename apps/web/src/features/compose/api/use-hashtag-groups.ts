import {
  EmptySuccessSchema,
  HashtagGroupResponseSchema,
  HashtagGroupsResponseSchema,
  type HashtagGroup,
  type SaveHashtagGroupRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const groupsPath = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}/hashtag-groups`;
const groupsKey = (orgId: string) => ['hashtag-groups', orgId] as const;

/** `GET …/hashtag-groups`: the organization's groups, by name. */
export function useHashtagGroups(orgId: string | null) {
  return useQuery({
    queryKey: groupsKey(orgId ?? ''),
    queryFn: async ({ signal }): Promise<HashtagGroup[]> =>
      (
        await apiClient.get(groupsPath(orgId ?? ''), {
          schema: HashtagGroupsResponseSchema,
          signal,
        })
      ).data.groups,
    enabled: Boolean(orgId),
    retry: false,
  });
}

/** `POST …/hashtag-groups`. */
export function useCreateHashtagGroup(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (group: SaveHashtagGroupRequest) =>
      (await apiClient.post(groupsPath(orgId), group, { schema: HashtagGroupResponseSchema })).data
        .group,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupsKey(orgId) }),
  });
}

/** `PUT …/hashtag-groups/{id}`: a new name and hashtags for a saved group. */
export function useUpdateHashtagGroup(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...group }: SaveHashtagGroupRequest & { id: string }) =>
      (
        await apiClient.put(`${groupsPath(orgId)}/${encodeURIComponent(id)}`, group, {
          schema: HashtagGroupResponseSchema,
        })
      ).data.group,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupsKey(orgId) }),
  });
}

/** `DELETE …/hashtag-groups/{id}`. */
export function useDeleteHashtagGroup(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (groupId: string) => {
      await apiClient.delete(`${groupsPath(orgId)}/${encodeURIComponent(groupId)}`, {
        schema: EmptySuccessSchema,
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupsKey(orgId) }),
  });
}
