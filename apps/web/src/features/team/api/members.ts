import {
  InvitationLinkResponseSchema,
  InvitationResendResponseSchema,
  InviteResponseSchema,
  MemberResponseSchema,
  MembersResponseSchema,
  type InviteRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth';
import { orgPath, teamKeys } from './team-keys';

/** The server's largest page: the screen filters and counts the whole team locally. */
const MEMBERS_PAGE_SIZE = 200;

/** `GET /organizations/{orgId}/members`: members and invitees, with the total count. */
export function useMembers(orgId: string | null | undefined) {
  return useQuery({
    queryKey: teamKeys.members(orgId ?? ''),
    queryFn: async () => {
      const answer = await apiClient.get(
        `${orgPath(orgId ?? '')}/members?page=1&pageSize=${MEMBERS_PAGE_SIZE}`,
        { schema: MembersResponseSchema },
      );
      return {
        members: answer.data.members,
        totalCount: answer.meta.totalCount,
        /** Herald can email invitations (SMTP_URL is set): "Resend email" is offered. */
        invitationEmail: answer.meta.invitationEmail ?? false,
      };
    },
    enabled: Boolean(orgId),
  });
}

/** `PUT …/members/{memberId}`: a new role; its default permissions apply. */
export function useChangeMemberRole(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ memberId, roleId }: { memberId: string; roleId: string }) => {
      const { data } = await apiClient.put(
        `${orgPath(orgId)}/members/${encodeURIComponent(memberId)}`,
        { roleId },
        { schema: MemberResponseSchema },
      );
      return data.member;
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.org(orgId) }),
        queryClient.invalidateQueries({ queryKey: meQueryKey }),
      ]),
  });
}

/** `DELETE …/members/{memberId}`: removes someone, or (on oneself) leaves the organization. */
export function useRemoveMember(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memberId: string) =>
      apiClient.delete(`${orgPath(orgId)}/members/${encodeURIComponent(memberId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.org(orgId) }),
  });
}

/** Sends one invitation; `inviteUrl` comes back when Herald sends no email itself. */
export async function inviteMember(orgId: string, request: InviteRequest) {
  const { data } = await apiClient.post(`/member/invite/${encodeURIComponent(orgId)}`, request, {
    schema: InviteResponseSchema,
  });
  return data;
}

export function useInviteMember(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: InviteRequest) => inviteMember(orgId, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.org(orgId) }),
  });
}

const invitationPath = (orgId: string, memberId: string) =>
  `${orgPath(orgId)}/invitations/${encodeURIComponent(memberId)}`;

/** `POST …/invitations/{memberId}/link`: a fresh link; the previous one stops working. */
export function useCopyInvitationLink(orgId: string) {
  return useMutation({
    mutationFn: async (memberId: string) => {
      const { data } = await apiClient.post(`${invitationPath(orgId, memberId)}/link`, undefined, {
        schema: InvitationLinkResponseSchema,
      });
      return data.inviteUrl;
    },
  });
}

/** `POST …/invitations/{memberId}/resend`: the email again, with a fresh link. */
export function useResendInvitation(orgId: string) {
  return useMutation({
    mutationFn: (memberId: string) =>
      apiClient.post(`${invitationPath(orgId, memberId)}/resend`, undefined, {
        schema: InvitationResendResponseSchema,
      }),
  });
}

/** `PUT …/members/{memberId}/accounts`: the connected accounts the member reaches (null: all). */
export function useSetMemberAccounts(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      memberId,
      integrationIds,
    }: {
      memberId: string;
      integrationIds: string[] | null;
    }) => {
      const { data } = await apiClient.put(
        `${orgPath(orgId)}/members/${encodeURIComponent(memberId)}/accounts`,
        { integrationIds },
        { schema: MemberResponseSchema },
      );
      return data.member;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.org(orgId) }),
  });
}
