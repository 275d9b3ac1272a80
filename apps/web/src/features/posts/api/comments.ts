import {
  CommentsResponseSchema,
  EmptySuccessSchema,
  ReplyResponseSchema,
  type Comment,
} from '@herald/contract';
import {
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { addReply, editMessage, removeComment } from './comment-tree';

/** How many comments one page asks for. */
export const COMMENTS_PAGE_SIZE = 25;

/**
 * The comments a network holds on one published post. Kept apart from `postKeys`, so reloading
 * the post (after publishing, say) never reads every network's comments again.
 */
export const commentKeys = {
  list: (orgId: string, postId: string, platformId: string, integrationId: string | null = null) =>
    ['post-comments', orgId, postId, platformId, integrationId] as const,
};

export interface CommentsPage {
  comments: Comment[];
  nextCursor: string | null;
}

type CommentsData = InfiniteData<CommentsPage, string | null>;

/** The place of one network's comments on one post. */
export interface CommentsScope {
  orgId: string;
  postId: string;
  platformId: string;
  /**
   * The account the post went out from, where it went out from several of the network (each has
   * its own post there, with its own comments); null: the network's one.
   */
  integrationId?: string | null;
}

/**
 * `GET /organizations/{orgId}/posts/{postId}/comments/{platformId}?cursor=&limit=`, a page at a
 * time (`meta.nextCursor` says there is more). Read only once `enabled` (after See Comments).
 */
export function useComments(
  { orgId, postId, platformId, integrationId = null }: CommentsScope,
  enabled: boolean,
) {
  return useInfiniteQuery({
    queryKey: commentKeys.list(orgId, postId, platformId, integrationId),
    queryFn: async ({ pageParam, signal }): Promise<CommentsPage> => {
      const query = new URLSearchParams({ limit: String(COMMENTS_PAGE_SIZE) });
      if (pageParam) query.set('cursor', pageParam);
      if (integrationId) query.set('integrationId', integrationId);
      const answer = await apiClient.get(
        `/organizations/${encodeURIComponent(orgId)}/posts/${encodeURIComponent(postId)}/comments/${encodeURIComponent(platformId)}?${query}`,
        { schema: CommentsResponseSchema, signal },
      );
      return { comments: answer.data.comments, nextCursor: answer.meta.nextCursor };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: enabled && Boolean(orgId && postId && platformId),
  });
}

/** Applies a change to every loaded page of a network's comments. */
function useUpdateComments(scope: CommentsScope) {
  const queryClient = useQueryClient();
  return (change: (comments: Comment[]) => Comment[]) =>
    queryClient.setQueryData<CommentsData>(
      commentKeys.list(scope.orgId, scope.postId, scope.platformId, scope.integrationId ?? null),
      (data) =>
        data && {
          ...data,
          pages: data.pages.map((page) => ({ ...page, comments: change(page.comments) })),
        },
    );
}

const commentPath = ({ orgId, platformId }: CommentsScope, commentId: string) =>
  `/organization/${encodeURIComponent(orgId)}/platform/${encodeURIComponent(platformId)}/comment/${encodeURIComponent(commentId)}`;

/** The account a call acts as, when the scope names one. */
const accountOf = (scope: CommentsScope) =>
  scope.integrationId ? { integrationId: scope.integrationId } : {};

/**
 * `POST /organization/{orgId}/platform/{platformId}/comment/{commentId}/replies {message, postId}`:
 * the new reply joins the thread under the comment it answers.
 */
export function useReplyToComment(scope: CommentsScope) {
  const update = useUpdateComments(scope);
  return useMutation({
    mutationFn: async ({ commentId, message }: { commentId: string; message: string }) => {
      const answer = await apiClient.post(
        `${commentPath(scope, commentId)}/replies`,
        { message, postId: scope.postId, ...accountOf(scope) },
        { schema: ReplyResponseSchema },
      );
      return answer.data.data;
    },
    onSuccess: (reply, { commentId }) => update((comments) => addReply(comments, commentId, reply)),
  });
}

/**
 * `PUT /organization/{orgId}/platform/{platformId}/comment/{commentId} {message, postId}`. The
 * answer carries only the new text, so the comment keeps its author, likes, time and replies.
 */
export function useEditComment(scope: CommentsScope) {
  const update = useUpdateComments(scope);
  return useMutation({
    mutationFn: async ({ commentId, message }: { commentId: string; message: string }) => {
      await apiClient.put(
        commentPath(scope, commentId),
        { message, postId: scope.postId, ...accountOf(scope) },
        { schema: EmptySuccessSchema },
      );
      return message;
    },
    onSuccess: (message, { commentId }) =>
      update((comments) => editMessage(comments, commentId, message)),
  });
}

/** `DELETE /organization/{orgId}/platform/{platformId}/comment/{commentId}`. */
export function useDeleteComment(scope: CommentsScope) {
  const update = useUpdateComments(scope);
  return useMutation({
    mutationFn: async (commentId: string) => {
      const account = scope.integrationId
        ? `?integrationId=${encodeURIComponent(scope.integrationId)}`
        : '';
      await apiClient.delete(`${commentPath(scope, commentId)}${account}`);
    },
    onSuccess: (_, commentId) => update((comments) => removeComment(comments, commentId)),
  });
}
