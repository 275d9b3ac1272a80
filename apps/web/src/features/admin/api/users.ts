import {
  ADMIN_PAGE_SIZE,
  AdminUsersResponseSchema,
  UserResponseSchema,
  type User,
} from '@herald/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth';
import { adminKeys, queryString } from './admin-keys';

/** `GET /users?search=&page=&pageSize=10`: a page of users and the total. */
export function useAdminUsers(search: string, page: number) {
  return useQuery({
    queryKey: adminKeys.users(search, page),
    queryFn: async () => {
      const answer = await apiClient.get(
        `/users${queryString({ search, page, pageSize: ADMIN_PAGE_SIZE })}`,
        { schema: AdminUsersResponseSchema },
      );
      return { users: answer.data.users, totalCount: answer.meta.totalCount };
    },
    // While the next page or search loads, the table keeps the rows it has.
    placeholderData: keepPreviousData,
  });
}

/** `GET /users/{id}`: the user the detail modal shows. */
export function useAdminUser(userId: string | null) {
  return useQuery({
    queryKey: adminKeys.user(userId ?? ''),
    queryFn: async (): Promise<User> => {
      const { data } = await apiClient.get(`/users/${encodeURIComponent(userId ?? '')}`, {
        schema: UserResponseSchema,
      });
      return data.user;
    },
    enabled: Boolean(userId),
  });
}

export interface UserChanges {
  displayName: string;
  avatarUrl: string | null;
  /** Left out when the user has none and the operator chose none. */
  timezone?: string;
}

/** `PUT /users/{id}`: display name, picture and time zone; the lists are read again after. */
export function useUpdateUser(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UserChanges) =>
      apiClient.put(`/users/${encodeURIComponent(userId)}`, changes, {
        schema: UserResponseSchema,
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.all }),
        // The operator may have edited themselves: the profile menu shows the new name.
        queryClient.invalidateQueries({ queryKey: meQueryKey }),
      ]),
  });
}
