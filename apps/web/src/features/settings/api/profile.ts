import { UserResponseSchema } from '@herald/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth';

export interface ProfileChanges {
  displayName: string;
  timezone: string;
}

/** `PUT /users/{userId}`: one's own display name and time zone; /auth/me is read again after. */
export function useUpdateProfile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: ProfileChanges) => {
      const { data } = await apiClient.put(`/users/${encodeURIComponent(userId)}`, changes, {
        schema: UserResponseSchema,
      });
      return data.user;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}
