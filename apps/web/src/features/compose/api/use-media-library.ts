import {
  EmptySuccessSchema,
  MediaLibraryItemResponseSchema,
  MediaLibraryResponseSchema,
  type CropRatio,
  type MediaKind,
  type MediaLibraryItem,
  type MediaStorage,
} from '@herald/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const mediaPath = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}/media`;
const libraryKey = (orgId: string) => ['media-library', orgId] as const;

export interface LibraryQuery {
  q: string;
  type: MediaKind | null;
  unused: boolean;
  page: number;
}

export interface LibraryPage {
  items: MediaLibraryItem[];
  storage: MediaStorage;
  totalCount: number;
  pageSize: number;
}

export const LIBRARY_PICKER_PAGE_SIZE = 12;

/** `GET …/media`: one page of the organization's media library (docs/media-library.md). */
export function useMediaLibrary(orgId: string, query: LibraryQuery, enabled = true) {
  const params = new URLSearchParams({
    page: String(query.page),
    pageSize: String(LIBRARY_PICKER_PAGE_SIZE),
  });
  if (query.q.trim()) params.set('q', query.q.trim());
  if (query.type) params.set('type', query.type);
  if (query.unused) params.set('unused', 'true');
  return useQuery({
    queryKey: [...libraryKey(orgId), params.toString()],
    queryFn: async ({ signal }): Promise<LibraryPage> => {
      const res = await apiClient.get(`${mediaPath(orgId)}?${params.toString()}`, {
        schema: MediaLibraryResponseSchema,
        signal,
      });
      return { ...res.data, totalCount: res.meta.totalCount, pageSize: res.meta.pageSize };
    },
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** `POST …/media/{id}/crop`: a new item cut to `ratio`; the original stays. */
export function useCropMedia(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ratio }: { id: string; ratio: CropRatio }) =>
      (
        await apiClient.post(
          `${mediaPath(orgId)}/${encodeURIComponent(id)}/crop`,
          { ratio },
          { schema: MediaLibraryItemResponseSchema },
        )
      ).data.item,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryKey(orgId) }),
  });
}

/** `DELETE …/media/{id}`: refused (409, with a sentence) while a post uses it. */
export function useDeleteMedia(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiClient.delete(`${mediaPath(orgId)}/${encodeURIComponent(id)}`, {
        schema: EmptySuccessSchema,
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryKey(orgId) }),
  });
}
