import {
  MembersResponseSchema,
  OrganizationResponseSchema,
  type TransferOwnershipRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { myOrganizationsQueryKey, organizationKey } from '@/lib/organization';

const orgPath = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}`;

/**
 * The organization's members, for naming its owner and offering its Admins as the next one.
 * Under the Team screens' prefix (`['team', orgId]`), so a role change there reads again here.
 */
export function useOwnershipMembers(orgId: string, { enabled = true } = {}) {
  return useQuery({
    queryKey: ['team', orgId, 'members', 'ownership'] as const,
    queryFn: async () =>
      (
        await apiClient.get(`${orgPath(orgId)}/members?page=1&pageSize=200`, {
          schema: MembersResponseSchema,
        })
      ).data.members,
    enabled: Boolean(orgId) && enabled,
  });
}

/** `POST …/transfer-ownership`: the owner hands the organization to one of its Admins. */
export function useTransferOwnership(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TransferOwnershipRequest) =>
      (
        await apiClient.post(`${orgPath(orgId)}/transfer-ownership`, body, {
          schema: OrganizationResponseSchema,
        })
      ).data.organization,
    onSuccess: async (organization) => {
      queryClient.setQueryData(organizationKey(orgId), organization);
      // Who pays for it changed: its plan, billing group and the owner's list read again.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['billing'] }),
        queryClient.invalidateQueries({ queryKey: myOrganizationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['team', orgId] }),
      ]);
    },
  });
}
