import { canCall, type OrgRoute, type PermissionName } from '@herald/contract';
import { useAuth } from './auth';

/**
 * What the signed-in member may do in their current organization, from /auth/me's effective
 * permissions. The server enforces the same table (the contract's ORG_ROUTE_PERMISSIONS); the
 * app uses it only to hide or disable what would be refused anyway.
 */
export function usePermissions() {
  const { member } = useAuth();
  const permissions = member?.permissions ?? [];
  return {
    permissions,
    /** The organization these permissions belong to (null before onboarding). */
    organizationId: member?.organizationId ?? null,
    has: (permission: PermissionName) => permissions.includes(permission),
    canCall: (route: OrgRoute) => member !== null && canCall(route, permissions),
  };
}

/** Whether the current member may call `route`, e.g. `useCan('POST /member/invite/:orgId')`. */
export function useCan(route: OrgRoute): boolean {
  return usePermissions().canCall(route);
}
