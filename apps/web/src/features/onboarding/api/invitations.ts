import {
  AcceptInviteResponseSchema,
  PendingInvitesResponseSchema,
  type AcceptInviteRequest,
  type PendingInvite,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { useOrganizationChanged } from '@/lib/auth';
import { myOrganizationsQueryKey } from '@/lib/organization';

export const pendingInvitesQueryKey = ['invitations', 'pending'] as const;

/** `GET /member/pending`: invitations sent to the signed-in user's email address. */
export function usePendingInvites() {
  return useQuery({
    queryKey: pendingInvitesQueryKey,
    refetchOnMount: 'always',
    queryFn: async () => {
      const { data } = await apiClient.get('/member/pending', {
        schema: PendingInvitesResponseSchema,
      });
      return data.pendingInvites;
    },
  });
}

/**
 * `POST /member/accept-invite` with the link's token or the invitation's id. The server makes the
 * joined organization the current one; /auth/me is refetched for the new membership.
 */
export function useAcceptInvite() {
  const queryClient = useQueryClient();
  const organizationChanged = useOrganizationChanged();
  return useMutation({
    mutationFn: async (request: AcceptInviteRequest) => {
      const { data } = await apiClient.post('/member/accept-invite', request, {
        schema: AcceptInviteResponseSchema,
      });
      return data.member;
    },
    onSuccess: async (member) => {
      queryClient.setQueryData<PendingInvite[]>(pendingInvitesQueryKey, (invites) =>
        invites?.filter((invite) => invite.organization.id !== member.organizationId),
      );
      await organizationChanged(member.organizationId);
      await queryClient.invalidateQueries({ queryKey: myOrganizationsQueryKey });
    },
  });
}

/** `POST /member/decline-invite`: the invitation is gone for good. */
export function useDeclineInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) =>
      apiClient.post('/member/decline-invite', { invitationId }),
    onSuccess: (_answer, invitationId) => {
      queryClient.setQueryData<PendingInvite[]>(pendingInvitesQueryKey, (invites) =>
        invites?.filter((invite) => invite.id !== invitationId),
      );
    },
  });
}
