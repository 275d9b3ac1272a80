import { useMutation, useQueryClient } from '@tanstack/react-query';
import { meQueryKey } from '@/lib/auth';
import { isApiError } from '@/lib/api-error';
import { postKeys } from '@/lib/posts';
import { buildPostFormData, type PostDraft } from './post-form-data';
import { uploadPost, uploadPostEdit } from './upload-post';

interface CreatePostVariables {
  draft: PostDraft;
  onProgress?: (fraction: number) => void;
}

/** Creates a post in one multipart request carrying every selected network and all files. */
export function useCreatePost(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ draft, onProgress }: CreatePostVariables) =>
      uploadPost(orgId, buildPostFormData(draft), { onProgress }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) }),
    onError: (error) => {
      // The refresh failed too: asking for the session again lets the app sign the user out.
      if (isApiError(error) && error.status === 401) {
        void queryClient.invalidateQueries({ queryKey: meQueryKey });
      }
    },
  });
}

/** Saves an edited post (accounts, texts, files, time) in one multipart request. */
export function useEditPost(orgId: string, postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ draft, onProgress }: CreatePostVariables) =>
      uploadPostEdit(orgId, postId, buildPostFormData(draft), { onProgress }),
    onSuccess: (post) => {
      queryClient.setQueryData(postKeys.detail(orgId, post.id), post);
      return queryClient.invalidateQueries({ queryKey: postKeys.org(orgId) });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 401) {
        void queryClient.invalidateQueries({ queryKey: meQueryKey });
      }
    },
  });
}
