import { PostMetricsResponseSchema, type PostMetrics } from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export type { PostMetrics };

export const postMetricsKey = (orgId: string, postId: string) =>
  ['post-metrics', orgId, postId] as const;

/** `GET …/posts/{postId}/metrics`: per published network, the latest figures and the readings. */
export function usePostMetrics(orgId: string, postId: string, enabled: boolean) {
  return useQuery({
    queryKey: postMetricsKey(orgId, postId),
    queryFn: async ({ signal }): Promise<PostMetrics> => {
      const answer = await apiClient.get(
        `/organizations/${encodeURIComponent(orgId)}/posts/${encodeURIComponent(postId)}/metrics`,
        { schema: PostMetricsResponseSchema, signal },
      );
      return answer.data;
    },
    enabled,
  });
}
