import {
  GuestApprovalResponseSchema,
  GuestDecisionResponseSchema,
  GuestLinkGoneDetailsSchema,
  type GuestApproval,
  type GuestDecision,
  type GuestPost,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';

/*
 * docs/product.md#client-approval-links: the client's page reads and decides through the link's
 * token alone. No session is involved: a 401 is never a reason to refresh one.
 */

const guestKey = (token: string) => ['guest-approval', token] as const;
const linkPath = (token: string) => `/guest/approvals/${encodeURIComponent(token)}`;

/** `GET /guest/approvals/{token}`: the organization's name and the link's posts. */
export function useGuestApproval(token: string) {
  return useQuery({
    queryKey: guestKey(token),
    queryFn: async ({ signal }): Promise<GuestApproval> => {
      const { data } = await apiClient.get(linkPath(token), {
        schema: GuestApprovalResponseSchema,
        signal,
        skipAuthRefresh: true,
      });
      return data;
    },
    enabled: token !== '',
  });
}

export interface DecisionInput {
  postId: string;
  decision: GuestDecision;
  comment?: string;
  publishNow?: boolean;
}

/** `POST /guest/approvals/{token}/decisions`: the page takes the post as it is after it. */
export function useGuestDecision(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: DecisionInput): Promise<GuestPost> => {
      const { data } = await apiClient.post(
        `${linkPath(token)}/decisions`,
        {
          postId: input.postId,
          decision: input.decision,
          ...(input.comment?.trim() ? { comment: input.comment.trim() } : {}),
          ...(input.publishNow ? { publishNow: true } : {}),
        },
        { schema: GuestDecisionResponseSchema, skipAuthRefresh: true },
      );
      return data.post;
    },
    onSuccess: (post) => {
      queryClient.setQueryData<GuestApproval>(guestKey(token), (page) =>
        page ? { ...page, posts: page.posts.map((p) => (p.id === post.id ? post : p)) } : page,
      );
    },
  });
}

/** Why the link no longer opens (410): withdrawn by the team, or past its time; else null. */
export function goneState(error: unknown): 'revoked' | 'expired' | null {
  if (!isApiError(error) || error.status !== 410) return null;
  const parsed = GuestLinkGoneDetailsSchema.safeParse(error.details);
  return parsed.success ? parsed.data.state : 'expired';
}
