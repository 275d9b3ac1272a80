import {
  BulkDuplicateResponseSchema,
  BulkPostsResponseSchema,
  DeletePostResponseSchema,
  BulkScheduleResponseSchema,
  type BulkRescheduleRequest,
  type BulkScheduleResult,
  PostResponseSchema,
  PostsResponseSchema,
  type ListPostsQuery,
  type Post,
  type UpdatePostRequest,
} from '@herald/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from './api-client';

/**
 * An organization's posts. The composer, the library, the calendar, the details page and the
 * dashboard all read or change them, so the hooks and keys live here: features may not import
 * each other. Every change invalidates `postKeys.org(orgId)`.
 */
export const postKeys = {
  org: (orgId: string) => ['posts', orgId] as const,
  list: (orgId: string, query: Omit<ListPostsQuery, 'orgId'>) =>
    ['posts', orgId, 'list', query] as const,
  detail: (orgId: string, postId: string) => ['posts', orgId, 'detail', postId] as const,
};

const postsPath = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}/posts`;

function toSearch(query: Omit<ListPostsQuery, 'orgId'>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export interface PostsPage {
  posts: Post[];
  totalCount: number;
  page: number;
  pageSize: number;
}

/** `GET /organizations/{orgId}/posts` with status, q, from/to and paging done by the server. */
export function usePosts(orgId: string | null | undefined, query: Omit<ListPostsQuery, 'orgId'>) {
  return useQuery({
    queryKey: postKeys.list(orgId ?? '', query),
    queryFn: async ({ signal }): Promise<PostsPage> => {
      const answer = await apiClient.get(`${postsPath(orgId ?? '')}${toSearch(query)}`, {
        schema: PostsResponseSchema,
        signal,
      });
      return { posts: answer.data.posts, ...answer.meta };
    },
    enabled: Boolean(orgId),
    placeholderData: keepPreviousData,
  });
}

/** `GET /organizations/{orgId}/posts/{postId}`. */
export function usePost(orgId: string | null | undefined, postId: string | undefined) {
  return useQuery({
    queryKey: postKeys.detail(orgId ?? '', postId ?? ''),
    queryFn: async ({ signal }): Promise<Post> => {
      const answer = await apiClient.get(
        `${postsPath(orgId ?? '')}/${encodeURIComponent(postId ?? '')}`,
        { schema: PostResponseSchema, signal },
      );
      return answer.data.post;
    },
    enabled: Boolean(orgId && postId),
  });
}

/** `PUT /organizations/{orgId}/posts/{postId}`: new text and/or a new time. */
export function useUpdatePost(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ postId, ...body }: UpdatePostRequest & { postId: string }) => {
      const answer = await apiClient.put(
        `${postsPath(orgId)}/${encodeURIComponent(postId)}`,
        body,
        { schema: PostResponseSchema },
      );
      return answer.data.post;
    },
    onSuccess: (post) => {
      queryClient.setQueryData(postKeys.detail(orgId, post.id), post);
      return queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) });
    },
  });
}

/** `DELETE /organizations/{orgId}/posts/{postId}`. */
export function useDeletePost(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    /** The server's notice: what of the post stays at a network (null: nothing). */
    mutationFn: async (postId: string) => {
      const answer = await apiClient.delete(`${postsPath(orgId)}/${encodeURIComponent(postId)}`, {
        schema: DeletePostResponseSchema,
      });
      return answer.data?.notice ?? null;
    },
    onSuccess: (_, postId) => {
      // The deleted post's own entry would only refetch into a 404.
      queryClient.removeQueries({ queryKey: postKeys.detail(orgId, postId) });
      return queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) });
    },
  });
}

export type BulkPostAction = 'delete' | 'draft';

/**
 * `POST /organizations/{orgId}/posts/bulk/{delete|draft}`: all the posts or none (the server
 * names the ones that cannot take the action). Answers how many posts changed.
 */
export function useBulkPosts(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ action, postIds }: { action: BulkPostAction; postIds: string[] }) => {
      const answer = await apiClient.post(
        `${postsPath(orgId)}/bulk/${action}`,
        { postIds },
        { schema: BulkPostsResponseSchema },
      );
      return answer.data;
    },
    onSuccess: ({ postIds }, { action }) => {
      if (action === 'delete') {
        for (const postId of postIds) {
          queryClient.removeQueries({ queryKey: postKeys.detail(orgId, postId) });
        }
      }
      return queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) });
    },
  });
}

/** What a bulk change sends besides the posts (docs/product.md#bulk-actions). */
export type BulkChange =
  | { action: 'reschedule'; body: Omit<BulkRescheduleRequest, 'postIds'> }
  | { action: 'queue' }
  | { action: 'approve'; body: { publishNow?: boolean } }
  | { action: 'reject'; body: { reason?: string } };

/**
 * `POST /organizations/{orgId}/posts/bulk/{reschedule|queue|approve|reject}`: all the posts or
 * none. Answers each post's status and time after the change.
 */
export function useBulkChange(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      postIds,
      ...change
    }: BulkChange & { postIds: string[] }): Promise<BulkScheduleResult> => {
      const answer = await apiClient.post(
        `${postsPath(orgId)}/bulk/${change.action}`,
        { postIds, ...('body' in change ? change.body : {}) },
        { schema: BulkScheduleResponseSchema },
      );
      return answer.data;
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) }),
        // The approvals page and its count, and the queue's free slots, read the same posts.
        queryClient.invalidateQueries({ queryKey: ['approvals', orgId] }),
        queryClient.invalidateQueries({ queryKey: ['queue', orgId] }),
      ]),
  });
}

/** `POST …/posts/bulk/duplicate`: a draft copy of each post; answers the copies' ids. */
export function useBulkDuplicate(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (postIds: string[]) => {
      const answer = await apiClient.post(
        `${postsPath(orgId)}/bulk/duplicate`,
        { postIds },
        { schema: BulkDuplicateResponseSchema },
      );
      return answer.data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) }),
  });
}
