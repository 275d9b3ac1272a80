import { RolesResponseSchema } from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

/**
 * `GET /organizations/{orgId}/roles`, for choosing which roles need post approval. Same key as
 * the Team screens' list (`['team', orgId, 'roles']`), so a role saved there shows here too.
 */
export function useOrganizationRoles(orgId: string, { enabled = true } = {}) {
  return useQuery({
    queryKey: ['team', orgId, 'roles'] as const,
    queryFn: () =>
      apiClient.get(`/organizations/${encodeURIComponent(orgId)}/roles`, {
        schema: RolesResponseSchema,
      }),
    enabled: Boolean(orgId) && enabled,
  });
}
