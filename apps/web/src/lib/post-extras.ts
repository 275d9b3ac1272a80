import {
  DeletedInternalCommentResponseSchema,
  InternalCommentResponseSchema,
  InternalCommentsResponseSchema,
  LinkTrackingSettingsResponseSchema,
  MembersResponseSchema,
  PostResponseSchema,
  type CreateInternalCommentRequest,
  type InternalComment,
  type LinkTrackingSettings,
  type Post,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from './api-client';
import { postKeys } from './posts';

/**
 * The composer and team extras: duplicate a post, its internal comments, the teammates a
 * comment may @mention, and the organization's default link tracking. Several features read
 * these, so they live here.
 */
export const extrasKeys = {
  comments: (orgId: string, postId: string) => ['internal-comments', orgId, postId] as const,
  teammates: (orgId: string) => ['teammates', orgId] as const,
  linkTracking: (orgId: string) => ['link-tracking', orgId] as const,
};

const org = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}`;
const post = (orgId: string, postId: string) => `${org(orgId)}/posts/${encodeURIComponent(postId)}`;

/** `POST …/posts/{postId}/duplicate`: the new draft. */
export function useDuplicatePost(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (postId: string): Promise<Post> => {
      const { data } = await apiClient.post(`${post(orgId, postId)}/duplicate`, undefined, {
        schema: PostResponseSchema,
      });
      return data.post;
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) });
    },
  });
}

/** `GET …/posts/{postId}/internal-comments`, oldest first. */
export function useInternalComments(orgId: string | null, postId: string | undefined) {
  return useQuery({
    queryKey: extrasKeys.comments(orgId ?? '', postId ?? ''),
    queryFn: async ({ signal }): Promise<InternalComment[]> => {
      const { data } = await apiClient.get(`${post(orgId ?? '', postId ?? '')}/internal-comments`, {
        schema: InternalCommentsResponseSchema,
        signal,
      });
      return data.comments;
    },
    enabled: Boolean(orgId && postId),
  });
}

export function useAddInternalComment(orgId: string, postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateInternalCommentRequest) => {
      const { data } = await apiClient.post(`${post(orgId, postId)}/internal-comments`, body, {
        schema: InternalCommentResponseSchema,
      });
      return data.comment;
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: extrasKeys.comments(orgId, postId) });
    },
  });
}

export function useDeleteInternalComment(orgId: string, postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (commentId: string) => {
      await apiClient.delete(
        `${post(orgId, postId)}/internal-comments/${encodeURIComponent(commentId)}`,
        { schema: DeletedInternalCommentResponseSchema },
      );
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: extrasKeys.comments(orgId, postId) });
    },
  });
}

export interface Teammate {
  userId: string;
  name: string;
  email: string;
}

/** The organization's active members, for @mentions (`GET /organizations/{orgId}/members`). */
export function useTeammates(orgId: string | null) {
  return useQuery({
    queryKey: extrasKeys.teammates(orgId ?? ''),
    queryFn: async ({ signal }): Promise<Teammate[]> => {
      const answer = await apiClient.get(`${org(orgId ?? '')}/members?page=1&pageSize=200`, {
        schema: MembersResponseSchema,
        signal,
      });
      return answer.data.members.flatMap((m) =>
        m.status === 'ACTIVE' && m.user
          ? [{ userId: m.user.id, name: m.user.displayName ?? m.email, email: m.email }]
          : [],
      );
    },
    enabled: Boolean(orgId),
    staleTime: 60_000,
  });
}

/** `GET /organizations/{orgId}/link-tracking`: the default UTM parameters for new posts. */
export function useLinkTrackingSettings(orgId: string | null) {
  return useQuery({
    queryKey: extrasKeys.linkTracking(orgId ?? ''),
    queryFn: async ({ signal }): Promise<LinkTrackingSettings> => {
      const { data } = await apiClient.get(`${org(orgId ?? '')}/link-tracking`, {
        schema: LinkTrackingSettingsResponseSchema,
        signal,
      });
      return data.settings;
    },
    enabled: Boolean(orgId),
  });
}

export function useSaveLinkTracking(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: LinkTrackingSettings) => {
      const { data } = await apiClient.put(`${org(orgId)}/link-tracking`, settings, {
        schema: LinkTrackingSettingsResponseSchema,
      });
      return data.settings;
    },
    onSuccess: (settings) => {
      queryClient.setQueryData(extrasKeys.linkTracking(orgId), settings);
    },
  });
}
