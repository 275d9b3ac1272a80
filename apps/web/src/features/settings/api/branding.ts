import { OrganizationResponseSchema, type Organization } from '@herald/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { organizationKey } from '@/lib/organization';

const pathOf = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}/branding`;

/**
 * The branding routes (docs/reports.md#branding, org:manage) answer the organization's record:
 * it replaces the one every screen reads.
 */
function useBrandingMutation<Input>(
  orgId: string,
  send: (input: Input) => Promise<{ data: { organization: Organization } }>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => (await send(input)).data.organization,
    onSuccess: (organization) => queryClient.setQueryData(organizationKey(orgId), organization),
  });
}

/** `PUT …/branding`: the brand colour (`#rrggbb`), or null to remove it. */
export const useSaveBrandColor = (orgId: string) =>
  useBrandingMutation(orgId, (color: string | null) =>
    apiClient.put(pathOf(orgId), { color }, { schema: OrganizationResponseSchema }),
  );

/** `PUT …/branding/logo` (multipart, field `logo`): uploads or replaces the logo. */
export const useUploadLogo = (orgId: string) =>
  useBrandingMutation(orgId, (file: File) => {
    const form = new FormData();
    form.append('logo', file, file.name);
    return apiClient.put(`${pathOf(orgId)}/logo`, form, { schema: OrganizationResponseSchema });
  });

/** `DELETE …/branding/logo`. */
export const useRemoveLogo = (orgId: string) =>
  useBrandingMutation(orgId, () =>
    apiClient.delete(`${pathOf(orgId)}/logo`, { schema: OrganizationResponseSchema }),
  );
