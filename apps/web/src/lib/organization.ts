import {
  OrganizationResponseSchema,
  type Organization,
  type UpdateOrganizationRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from './api-client';

/**
 * The current organization's own record (its default time zone). Every screen that shows times
 * reads it and Settings edits it, so it lives here: features may not import each other.
 */
export const organizationKey = (orgId: string) => ['organization', orgId] as const;

/** `GET /organizations/{orgId}`. */
export function useOrganization(orgId: string | null, { enabled = true } = {}) {
  return useQuery({
    queryKey: organizationKey(orgId ?? ''),
    queryFn: async (): Promise<Organization> => {
      const { data } = await apiClient.get(`/organizations/${encodeURIComponent(orgId ?? '')}`, {
        schema: OrganizationResponseSchema,
      });
      return data.organization;
    },
    enabled: Boolean(orgId) && enabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** `PATCH /organizations/{orgId}` (org:manage): the organization default time zone. */
export function useUpdateOrganization(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: UpdateOrganizationRequest) => {
      const { data } = await apiClient.patch(
        `/organizations/${encodeURIComponent(orgId)}`,
        changes,
        { schema: OrganizationResponseSchema },
      );
      return data.organization;
    },
    onSuccess: (organization) => {
      queryClient.setQueryData(organizationKey(orgId), organization);
    },
  });
}
