import {
  CurrentOrganizationResponseSchema,
  MyOrganizationsResponseSchema,
  OrganizationResponseSchema,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { useOrganizationChanged } from '@/lib/auth';
import { rememberOrganization } from '@/lib/recent-organizations';

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

/** `POST /organizations`: the creator becomes its Admin and the server makes it current. */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  const organizationChanged = useOrganizationChanged();
  return useMutation({
    mutationFn: async (name: string) => {
      const { data } = await apiClient.post(
        '/organizations',
        { name },
        { schema: OrganizationResponseSchema },
      );
      return data.organization;
    },
    onSuccess: async (organization) => {
      await organizationChanged(organization.id);
      await queryClient.invalidateQueries({ queryKey: myOrganizationsQueryKey });
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
