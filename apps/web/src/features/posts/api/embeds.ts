import { FacebookPermalinkResponseSchema, PostEmbedResponseSchema } from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

/** What an embed needs of a published post; it does not change once published. */
export const embedKeys = {
  media: (orgId: string, postId: string, platformId: string) =>
    ['post-embed', orgId, postId, platformId] as const,
  facebook: (orgId: string, postId: string, platformId: string) =>
    ['post-embed', orgId, postId, platformId, 'facebook'] as const,
};

const mediaPath = (orgId: string, postId: string, platformId: string) =>
  `/organizations/${encodeURIComponent(orgId)}/posts/${encodeURIComponent(postId)}/media/${encodeURIComponent(platformId)}`;

/** `GET …/posts/{postId}/media/{platformId}`: shortcode (Instagram), permalink, username. */
export function usePostEmbed(orgId: string, postId: string, platformId: string, enabled = true) {
  return useQuery({
    queryKey: embedKeys.media(orgId, postId, platformId),
    queryFn: async ({ signal }) => {
      const answer = await apiClient.get(mediaPath(orgId, postId, platformId), {
        schema: PostEmbedResponseSchema,
        signal,
      });
      return answer.data.data;
    },
    enabled,
    staleTime: Infinity,
  });
}

/** `GET …/posts/{postId}/media/{platformId}/facebook`: the post's permalink on Facebook. */
export function useFacebookPermalink(
  orgId: string,
  postId: string,
  platformId: string,
  enabled = true,
) {
  return useQuery({
    queryKey: embedKeys.facebook(orgId, postId, platformId),
    queryFn: async ({ signal }) => {
      const answer = await apiClient.get(`${mediaPath(orgId, postId, platformId)}/facebook`, {
        schema: FacebookPermalinkResponseSchema,
        signal,
      });
      return answer.data.permalink;
    },
    enabled,
    staleTime: Infinity,
  });
}
