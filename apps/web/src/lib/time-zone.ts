import { applicableTimeZone, type ApplicableTimeZone } from '@herald/contract';

/**
 * Time zones, in one place: the list people choose from (settings, onboarding-free back-office
 * form, the organization's time zone) and the conversions that show and take times in the zone
 * that applies rather than in the browser's (organization zone > member zone > UTC).
 * Built on `Intl` only, which is exact across daylight-saving changes.
 */

/**
 * The IANA time zones this browser knows, or null when it cannot list them (older engines lack
 * `Intl.supportedValuesOf`). Engines leave out the "UTC" alias, which many people pick.
 */
export function loadTimeZones(): string[] | null {
  try {
    if (typeof Intl.supportedValuesOf !== 'function') return null;
    const zones = Intl.supportedValuesOf('timeZone');
    if (zones.length === 0) return null;
    return zones.includes('UTC') ? zones : ['UTC', ...zones];
  } catch {
    return null;
  }
}

/** The list to offer: `zones`, plus the saved zone when the list lacks it (so it stays shown). */
export function timeZoneOptions(zones: readonly string[] | null, saved: string): string[] {
  const list = zones ?? [];
  return saved && !list.includes(saved) ? [saved, ...list] : [...list];
}

/** How a zone reads in a list: "America/New York". */
export const timeZoneLabel = (zone: string) => zone.replaceAll('_', ' ');

/** The browser's IANA zone ("Europe/Paris"), or null when the engine will not say. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** Whether this browser can show times in `zone`. */
export function isKnownTimeZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone times are shown and chosen in: the contract's rule (`applicableTimeZone`: the
 * organization's time zone, else the member's own, else UTC), the server's too. A zone this
 * browser cannot show is passed over rather than trusted.
 */
export const ruleTimeZone = (
  organizationZone: string | null | undefined,
  memberZone: string | null | undefined,
): ApplicableTimeZone => applicableTimeZone(organizationZone, memberZone, isKnownTimeZone);

// The wall-time conversions live in the contract (the server's posting queue uses them too).
export {
  formatWallTime,
  instantOfWallTime,
  parseWallTime,
  toZonedLocal,
  wallTimeAt,
  zonedLocalToInstant,
  zoneOffset,
  type WallTime,
} from '@herald/contract';
