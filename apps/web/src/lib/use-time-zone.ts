import { useAuth } from './auth';
import { useOrganization } from './organization';
import { browserTimeZone, effectiveTimeZone } from './time-zone';

/**
 * The zone the signed-in user sees and chooses times in: their saved zone (Settings), else the
 * organization's default, else the browser's. The organization is only asked when the user has
 * no zone of their own.
 */
export function useTimeZone(): string {
  const { user, currentOrgId } = useAuth();
  const userZone = user?.timezone ?? null;
  const organization = useOrganization(currentOrgId, { enabled: !userZone });
  return effectiveTimeZone(userZone, organization.data?.defaultTimeZone, browserTimeZone());
}
