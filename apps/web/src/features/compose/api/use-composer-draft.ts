import {
  ComposerDraftResponseSchema,
  EmptySuccessSchema,
  type ComposerDraft,
  type ComposerDraftBody,
} from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const draftPath = (orgId: string, postId: string | null) =>
  `/organizations/${encodeURIComponent(orgId)}/composer-draft${
    postId ? `?postId=${encodeURIComponent(postId)}` : ''
  }`;

/**
 * `GET …/composer-draft`: the member's autosaved draft of a new post (`postId` null) or of an
 * edit. Read fresh each time the composer opens, since it may have been saved on another device.
 */
export function useComposerDraft(orgId: string, postId: string | null) {
  return useQuery({
    queryKey: ['composer-draft', orgId, postId] as const,
    queryFn: async ({ signal }): Promise<ComposerDraft | null> =>
      (
        await apiClient.get(draftPath(orgId, postId), {
          schema: ComposerDraftResponseSchema,
          signal,
        })
      ).data.draft,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** `PUT …/composer-draft`: replaces the kept draft. */
export async function saveComposerDraft(
  orgId: string,
  postId: string | null,
  body: ComposerDraftBody,
): Promise<ComposerDraft | null> {
  const { data } = await apiClient.put(
    draftPath(orgId, null),
    { postId, body },
    { schema: ComposerDraftResponseSchema },
  );
  return data.draft;
}

/** `DELETE …/composer-draft`: the post was sent, or the member started over. */
export async function discardComposerDraft(orgId: string, postId: string | null) {
  await apiClient.delete(draftPath(orgId, postId), { schema: EmptySuccessSchema });
}
