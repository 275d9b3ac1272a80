import {
  EmptySuccessSchema,
  FeedCheckResponseSchema,
  FeedDetailResponseSchema,
  FeedListResponseSchema,
  FeedPreviewResponseSchema,
  FeedResponseSchema,
  type CreateFeedRequest,
  type PreviewFeedRequest,
  type UpdateFeedRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const feedsKey = (orgId: string) => ['feeds', orgId] as const;
const feedKey = (orgId: string, feedId: string) => ['feeds', orgId, feedId] as const;
const base = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}/feeds`;
const one = (orgId: string, feedId: string) => `${base(orgId)}/${encodeURIComponent(feedId)}`;

/** `GET /organizations/{id}/feeds` (post:create): the feeds whose accounts the member reaches. */
export function useFeeds(orgId: string) {
  return useQuery({
    queryKey: feedsKey(orgId),
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(base(orgId), { schema: FeedListResponseSchema, signal });
      return data.feeds;
    },
  });
}

/** A feed's latest items and what became of each. */
export function useFeedItems(orgId: string, feedId: string) {
  return useQuery({
    queryKey: feedKey(orgId, feedId),
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(one(orgId, feedId), {
        schema: FeedDetailResponseSchema,
        signal,
      });
      return data.items;
    },
  });
}

/** Reads a feed without adding it (the add form's preview). */
export function usePreviewFeed(orgId: string) {
  return useMutation({
    mutationFn: async (body: PreviewFeedRequest) => {
      const { data } = await apiClient.post(`${base(orgId)}/preview`, body, {
        schema: FeedPreviewResponseSchema,
      });
      return data.preview;
    },
  });
}

/** Adds a feed; the server reads it at once (the first check). */
export function useCreateFeed(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateFeedRequest) => {
      const { data } = await apiClient.post(base(orgId), body, {
        schema: FeedCheckResponseSchema,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedsKey(orgId) }),
  });
}

export function useUpdateFeed(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: UpdateFeedRequest & { id: string }) => {
      const { data } = await apiClient.patch(one(orgId, id), body, { schema: FeedResponseSchema });
      return data.feed;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedsKey(orgId) }),
  });
}

export function useDeleteFeed(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiClient.delete(one(orgId, id), { schema: EmptySuccessSchema });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedsKey(orgId) }),
  });
}

/** "Check now": the check's result, and the feed and its items fetched again. */
export function useCheckFeed(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { data } = await apiClient.post(`${one(orgId, id)}/check`, undefined, {
        schema: FeedCheckResponseSchema,
      });
      return data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: feedsKey(orgId) }),
  });
}
