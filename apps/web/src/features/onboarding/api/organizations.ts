import { OrganizationResponseSchema } from '@herald/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { useOrganizationChanged } from '@/lib/auth';
import { myOrganizationsQueryKey } from '@/lib/organization';

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
