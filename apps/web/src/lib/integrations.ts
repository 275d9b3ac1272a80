import {
  IntegrationsResponseSchema,
  PlatformsResponseSchema,
  platformSlug,
  type Integration,
  type Platform,
} from '@herald/contract';
import { useQuery } from '@tanstack/react-query';
import { API_BASE, apiClient } from './api-client';

/**
 * The networks Herald supports and the accounts an organization connected. Settings manages
 * them, and the dashboard and the post screens read them, so they live here: features may not
 * import each other.
 */
export const integrationKeys = {
  supported: ['platforms', 'supported'] as const,
  org: (orgId: string) => ['integrations', orgId] as const,
};

/** `GET /platforms/supported`: every network operators offer, active or not. */
export function useSupportedPlatforms() {
  return useQuery({
    queryKey: integrationKeys.supported,
    queryFn: async (): Promise<Platform[]> => {
      const { data } = await apiClient.get('/platforms/supported', {
        schema: PlatformsResponseSchema,
      });
      return data.platforms;
    },
    staleTime: 5 * 60_000,
  });
}

/** The networks a member can connect now: active, and with an adapter on this server. */
export function connectablePlatforms(platforms: readonly Platform[]): Platform[] {
  return platforms.filter((platform) => platform.isActive && platform.connectable);
}

/** `GET /organizations/{orgId}/integrations`: the organization's accounts (docs/product.md#api-calls). */
export function useIntegrations(orgId: string | null | undefined) {
  return useQuery({
    queryKey: integrationKeys.org(orgId ?? ''),
    queryFn: async (): Promise<Integration[]> => {
      const { data } = await apiClient.get(
        `/organizations/${encodeURIComponent(orgId ?? '')}/integrations`,
        { schema: IntegrationsResponseSchema },
      );
      return data.platforms;
    },
    enabled: Boolean(orgId),
  });
}

/**
 * Where the browser goes to connect (or reconnect) an account: the server sends it on to the
 * network's consent page, which comes back to /settings (docs/product.md#api-calls: `/auth/{platform}?orgId=`).
 */
export function connectUrl(
  platformName: string,
  orgId: string,
  kind?: string | null,
  instance?: string,
): string {
  const query = new URLSearchParams({
    orgId,
    ...(kind ? { kind } : {}),
    ...(instance ? { instance } : {}),
  });
  return `${API_BASE}/auth/${platformSlug(platformName)}?${query}`;
}
