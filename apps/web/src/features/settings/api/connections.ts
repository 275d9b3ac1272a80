import {
  IntegrationsResponseSchema,
  MessageResponseSchema,
  networkTraitsOf,
  PendingConnectionResponseSchema,
  platformSlug,
  type Integration,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { integrationKeys } from '@/lib/integrations';

const orgPath = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}`;

/** Kept apart from the integration list's key, so reloading the list never refetches a choice. */
const pendingKey = (orgId: string, pendingId: string) =>
  ['pending-connection', orgId, pendingId] as const;

/**
 * Whether the network's access tokens expire and can be renewed on demand (NETWORK_TRAITS'
 * `refreshableTokens`). Facebook Page tokens do not expire, so it has no refresh button.
 */
export function canRefreshTokens(platformName: string): boolean {
  // The exact name, as platformSlug spells the refresh URL from it: a name the routes would not
  // answer shows no button.
  return networkTraitsOf(platformName)?.refreshableTokens ?? false;
}

/** `POST /{platform}/disconnect/{orgId}` with the account's id, so only that account goes. */
export function useDisconnect(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (integration: Integration) =>
      apiClient.post(
        `/${platformSlug(integration.platform.name)}/disconnect/${encodeURIComponent(orgId)}`,
        { integrationId: integration.id },
        { schema: MessageResponseSchema },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationKeys.org(orgId) }),
  });
}

/**
 * `POST …/integrations/{platform}/app-password`: connects an account with its handle and an app
 * password (Bluesky), without leaving Herald. The password is not kept.
 */
export function useConnectWithAppPassword(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { platformName: string; identifier: string; appPassword: string }) =>
      apiClient.post(
        `${orgPath(orgId)}/integrations/${platformSlug(input.platformName)}/app-password`,
        { identifier: input.identifier, appPassword: input.appPassword },
        { schema: IntegrationsResponseSchema },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationKeys.org(orgId) }),
  });
}

/** `GET /auth/{platform}/refresh?orgId=&integrationId=`: renews the account's tokens now. */
export function useRefreshTokens(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (integration: Integration) => {
      const query = new URLSearchParams({ orgId, integrationId: integration.id });
      return apiClient.get(`/auth/${platformSlug(integration.platform.name)}/refresh?${query}`, {
        schema: MessageResponseSchema,
      });
    },
    // Success clears a REFRESH_FAILED status; a failure may set one.
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationKeys.org(orgId) }),
  });
}

/** `GET …/integrations/pending/{pendingId}`: the accounts one sign-in offers. */
export function usePendingConnection(orgId: string, pendingId: string | null) {
  return useQuery({
    queryKey: pendingKey(orgId, pendingId ?? ''),
    queryFn: async () => {
      const { data } = await apiClient.get(
        `${orgPath(orgId)}/integrations/pending/${encodeURIComponent(pendingId ?? '')}`,
        { schema: PendingConnectionResponseSchema },
      );
      return data;
    },
    enabled: Boolean(orgId && pendingId),
    // A choice is single-use: never refetch it behind the user's back.
    staleTime: Infinity,
  });
}

/** `POST …/integrations/pending/{pendingId}`: connects the chosen accounts. */
export function useChooseAccounts(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      pendingId,
      externalIds,
    }: {
      pendingId: string;
      externalIds: string[];
    }) => {
      const { data } = await apiClient.post(
        `${orgPath(orgId)}/integrations/pending/${encodeURIComponent(pendingId)}`,
        { externalIds },
        { schema: IntegrationsResponseSchema },
      );
      return data.platforms;
    },
    onSuccess: (platforms) => {
      queryClient.setQueryData(integrationKeys.org(orgId), platforms);
    },
  });
}
