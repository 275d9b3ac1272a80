import {
  ApprovalLinkResponseSchema,
  ApprovalLinksResponseSchema,
  CreateApprovalLinkResponseSchema,
  type ApprovalLink,
  type CreateApprovalLinkRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

/** docs/product.md#client-approval-links: the links approvers send to clients. */
export const approvalLinkKeys = {
  org: (orgId: string) => ['approval-links', orgId] as const,
  ofPost: (orgId: string, postId: string) => ['approval-links', orgId, postId] as const,
};

const linksPath = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}/approval-links`;

/** `GET …/approval-links?postId=`: the links that carry this post, newest first. */
export function usePostApprovalLinks(orgId: string, postId: string, { enabled = true } = {}) {
  return useQuery({
    queryKey: approvalLinkKeys.ofPost(orgId, postId),
    queryFn: async ({ signal }): Promise<ApprovalLink[]> => {
      const { data } = await apiClient.get(
        `${linksPath(orgId)}?postId=${encodeURIComponent(postId)}`,
        { schema: ApprovalLinksResponseSchema, signal },
      );
      return data.links;
    },
    enabled: Boolean(orgId && postId) && enabled,
  });
}

/** `POST …/approval-links`: the new link, whose URL is shown this once. */
export function useCreateApprovalLink(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateApprovalLinkRequest) => {
      const { data } = await apiClient.post(linksPath(orgId), body, {
        schema: CreateApprovalLinkResponseSchema,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: approvalLinkKeys.org(orgId) }),
  });
}

/** `DELETE …/approval-links/{linkId}`: the link stops working at once. */
export function useRevokeApprovalLink(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (linkId: string) => {
      const { data } = await apiClient.delete(`${linksPath(orgId)}/${encodeURIComponent(linkId)}`, {
        schema: ApprovalLinkResponseSchema,
      });
      return data.link;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: approvalLinkKeys.org(orgId) }),
  });
}
