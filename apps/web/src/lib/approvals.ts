import {
  ApprovalEventsResponseSchema,
  ApprovalQueueResponseSchema,
  PostResponseSchema,
  type ApprovalEvent,
  type Post,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from './api-client';
import { isApiError } from './api-error';
import { postKeys } from './posts';

/**
 * Post approval (docs/product.md#approvals). The sidebar (its count), the Approvals page and the
 * post's details read these, so they live here: features may not import each other.
 */
export const approvalKeys = {
  queue: (orgId: string) => ['approvals', orgId, 'queue'] as const,
  events: (orgId: string, postId: string) => ['approvals', orgId, 'events', postId] as const,
};

const org = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}`;

export interface ApprovalQueue {
  posts: Post[];
  count: number;
}

/** `GET /organizations/{orgId}/approvals` (post:approve); pass enabled=false for others. */
export function useApprovalQueue(orgId: string | null, { enabled = true } = {}) {
  return useQuery({
    queryKey: approvalKeys.queue(orgId ?? ''),
    queryFn: async ({ signal }): Promise<ApprovalQueue> => {
      const { data } = await apiClient.get(`${org(orgId ?? '')}/approvals`, {
        schema: ApprovalQueueResponseSchema,
        signal,
      });
      return data;
    },
    enabled: Boolean(orgId) && enabled,
    refetchInterval: 60_000,
  });
}

/** `GET /organizations/{orgId}/posts/{postId}/approvals`: who submitted, approved, rejected. */
export function useApprovalEvents(orgId: string | null, postId: string | undefined) {
  return useQuery({
    queryKey: approvalKeys.events(orgId ?? '', postId ?? ''),
    queryFn: async ({ signal }): Promise<ApprovalEvent[]> => {
      const { data } = await apiClient.get(
        `${org(orgId ?? '')}/posts/${encodeURIComponent(postId ?? '')}/approvals`,
        { schema: ApprovalEventsResponseSchema, signal },
      );
      return data.events;
    },
    enabled: Boolean(orgId && postId),
  });
}

/** The approve answer when the post's time has passed: ask, then approve with publishNow. */
export function isTimePassed(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.status === 409 &&
    typeof error.details === 'object' &&
    error.details !== null &&
    (error.details as { timePassed?: unknown }).timePassed === true
  );
}

function useApprovalMutation<V>(orgId: string, call: (variables: V) => Promise<Post>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['approvals', orgId] }),
        queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) }),
      ]);
    },
  });
}

/** `POST …/approvals/{postId}/approve`. */
export function useApprovePost(orgId: string) {
  return useApprovalMutation(
    orgId,
    async ({ postId, publishNow }: { postId: string; publishNow?: boolean }) => {
      const { data } = await apiClient.post(
        `${org(orgId)}/approvals/${encodeURIComponent(postId)}/approve`,
        publishNow ? { publishNow: true } : {},
        { schema: PostResponseSchema },
      );
      return data.post;
    },
  );
}

/** `POST …/approvals/{postId}/reject` with the reason its author reads. */
export function useRejectPost(orgId: string) {
  return useApprovalMutation(
    orgId,
    async ({ postId, reason }: { postId: string; reason: string }) => {
      const { data } = await apiClient.post(
        `${org(orgId)}/approvals/${encodeURIComponent(postId)}/reject`,
        { reason },
        { schema: PostResponseSchema },
      );
      return data.post;
    },
  );
}
