import type { ApplicableTimeZone } from '@herald/contract';
import { useAuth } from './auth';
import { useOrganization } from './organization';
import { ruleTimeZone } from './time-zone';

export interface TimeZoneRule extends ApplicableTimeZone {
  /**
   * False while the organization's record is still loading: until then the zone is the member's
   * own, which the organization's may replace. Screens that take a time (the composer) wait.
   */
  settled: boolean;
}

/**
 * The zone the signed-in member sees and chooses times in, and why (docs/product.md#time-zones):
 * the organization's time zone when it has one, else their own (Settings; first taken from the
 * browser at sign-in), else UTC.
 */
export function useTimeZoneRule(): TimeZoneRule {
  const { user, currentOrgId } = useAuth();
  const organization = useOrganization(currentOrgId);
  return {
    ...ruleTimeZone(organization.data?.defaultTimeZone, user?.timezone),
    settled: !currentOrgId || !organization.isPending,
  };
}

/** The zone that applies (`useTimeZoneRule`), for screens that only need its name. */
export function useTimeZone(): string {
  return useTimeZoneRule().zone;
}
