import {
  CurrentOrganizationResponseSchema,
  MyOrganizationsResponseSchema,
  OrganizationResponseSchema,
  type Organization,
  type UpdateOrganizationRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from './api-client';
import { useOrganizationChanged } from './auth';
import { rememberOrganization } from './recent-organizations';

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

/** `PATCH /organizations/{orgId}` (org:manage): the organization's time zone and approval rules. */
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
      // The posting queue's zone is the organization's when it has one.
      void queryClient.invalidateQueries({ queryKey: ['queue', orgId] });
    },
  });
}

/* The user's organizations and the switch between them: onboarding, the top bar's switcher and
   the All clients views all use them. */
export const myOrganizationsQueryKey = ['organizations', 'mine'] as const;

/** `GET /member/organizations`: every organization the user belongs to, current one marked. */
export function useMyOrganizations({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: myOrganizationsQueryKey,
    enabled,
    // Memberships change elsewhere (leaving on /team, another tab): always show the latest.
    refetchOnMount: 'always',
    queryFn: async () => {
      const { data } = await apiClient.get('/member/organizations', {
        schema: MyOrganizationsResponseSchema,
      });
      return data.organizations;
    },
  });
}

/** `POST /member/current-organization`: the server remembers the switch for /auth/me. */
export function useSwitchOrganization() {
  const queryClient = useQueryClient();
  const organizationChanged = useOrganizationChanged();
  return useMutation({
    mutationFn: async (organizationId: string) => {
      const { data } = await apiClient.post(
        '/member/current-organization',
        { organizationId },
        { schema: CurrentOrganizationResponseSchema },
      );
      return data.organizationId;
    },
    onSuccess: async (organizationId) => {
      rememberOrganization(organizationId);
      await organizationChanged(organizationId);
      await queryClient.invalidateQueries({ queryKey: myOrganizationsQueryKey });
    },
  });
}
