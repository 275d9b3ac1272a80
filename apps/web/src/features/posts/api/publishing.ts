import {
  PublishNowResponseSchema,
  type PublishNowResponse,
  type ResolveTargetRequest,
} from '@herald/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiClient } from '@/lib/api-client';
import { postKeys } from '@/lib/posts';

const orgPath = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}`;

/** While a post is publishing, its page reads it again this often, in ms. */
export const PUBLISHING_REFRESH_MS = 5_000;

/**
 * `PATCH /organizations/{orgId}/post/{postId}/publish {platforms}`: publishes now to the named
 * networks and answers per network (not wrapped in `data`). The server waits for the networks,
 * up to about 90 seconds. Whatever the answer, the post changed on the server, so it is read again.
 */
export function usePublishNow(orgId: string, postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (platforms: string[]): Promise<PublishNowResponse> =>
      apiClient.patch(
        `${orgPath(orgId)}/post/${encodeURIComponent(postId)}/publish`,
        { platforms },
        { schema: PublishNowResponseSchema },
      ),
    // Not awaited: the answer's toasts and rows show at once, the reloaded post follows.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) });
    },
  });
}

/**
 * `POST /organizations/{orgId}/posts/{postId}/targets/{targetId}/resolve`: after an uncertain
 * (or failed) publication, the user says it did go out, or asks for another try.
 */
export function useResolveTarget(orgId: string, postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ targetId, ...body }: ResolveTargetRequest & { targetId: string }) =>
      apiClient.post(
        `${orgPath(orgId)}/posts/${encodeURIComponent(postId)}/targets/${encodeURIComponent(targetId)}/resolve`,
        body,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) }),
  });
}

/**
 * Reads the post again every few seconds while `active` (the engine is publishing it in the
 * background), so its networks' rows settle without a reload.
 */
export function useRefreshWhilePublishing(orgId: string, postId: string, active: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      void queryClient.invalidateQueries({ queryKey: postKeys.detail(orgId, postId) });
    }, PUBLISHING_REFRESH_MS);
    return () => clearInterval(timer);
  }, [active, orgId, postId, queryClient]);
}

/**
 * `POST …/targets/{targetId}/follow-ups/retry`: the failed thread part or first comment goes
 * again (and what waited for it), never the ones already out.
 */
export function useRetryFollowUps(orgId: string, postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (targetId: string) =>
      apiClient.post(
        `${orgPath(orgId)}/posts/${encodeURIComponent(postId)}/targets/${encodeURIComponent(targetId)}/follow-ups/retry`,
        {},
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) }),
  });
}

/** `POST …/follow-ups/{followUpId}/resolve`: after an uncertain part, it went out, or try again. */
export function useResolveFollowUp(orgId: string, postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      targetId,
      followUpId,
      outcome,
    }: {
      targetId: string;
      followUpId: string;
      outcome: 'published' | 'retry';
    }) =>
      apiClient.post(
        `${orgPath(orgId)}/posts/${encodeURIComponent(postId)}/targets/${encodeURIComponent(targetId)}/follow-ups/${encodeURIComponent(followUpId)}/resolve`,
        { outcome },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) }),
  });
}
