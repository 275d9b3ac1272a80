import {
  PermissionsResponseSchema,
  RoleResponseSchema,
  RolesResponseSchema,
  type SaveRoleRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth';
import { orgPath, teamKeys } from './team-keys';

/** `GET /permissions`: the global list with labels; it only changes with a release. */
export function usePermissionCatalog() {
  return useQuery({
    queryKey: teamKeys.permissions,
    queryFn: () => apiClient.get('/permissions', { schema: PermissionsResponseSchema }),
    staleTime: Infinity,
  });
}

/** `GET /organizations/{orgId}/roles`. */
export function useRoles(orgId: string | null | undefined) {
  return useQuery({
    queryKey: teamKeys.roles(orgId ?? ''),
    queryFn: () => apiClient.get(`${orgPath(orgId ?? '')}/roles`, { schema: RolesResponseSchema }),
    enabled: Boolean(orgId),
  });
}

/** Creates a role, or updates it when `roleId` is given. */
export function useSaveRole(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ roleId, body }: { roleId?: string; body: SaveRoleRequest }) => {
      const path = `${orgPath(orgId)}/roles`;
      const { data } = roleId
        ? await apiClient.put(`${path}/${encodeURIComponent(roleId)}`, body, {
            schema: RoleResponseSchema,
          })
        : await apiClient.post(path, body, { schema: RoleResponseSchema });
      return data.role;
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.org(orgId) }),
        // Editing one's own role changes one's permissions.
        queryClient.invalidateQueries({ queryKey: meQueryKey }),
      ]),
  });
}

/** Answers 409 'Cannot delete role with assigned members' while the role has members. */
export function useDeleteRole(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (roleId: string) =>
      apiClient.delete(`${orgPath(orgId)}/roles/${encodeURIComponent(roleId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.roles(orgId) }),
  });
}
