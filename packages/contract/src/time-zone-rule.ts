import { z } from 'zod';
import { isTimeZone } from './auth.js';
import { wallTimeAt } from './wall-time.js';

/**
 * Which time zone applies, in one place for the server and the web (docs/product.md#time-zones):
 * the organization's time zone when it has one, else the member's own (saved in their profile,
 * first taken from their browser at sign-in), else UTC. Every time a member reads or enters —
 * the composer, the calendar, post lists, analytics days, the CSV import, the daily digest — is
 * in that zone, and the screen names it.
 */

/** Where the zone that applies came from. */
export const TIME_ZONE_SOURCES = ['organization', 'member', 'default'] as const;
export type TimeZoneSource = (typeof TIME_ZONE_SOURCES)[number];

/** The zone when neither the organization nor the member has one. */
export const FALLBACK_TIME_ZONE = 'UTC';

export interface ApplicableTimeZone {
  /** An IANA name (Europe/Paris). */
  zone: string;
  source: TimeZoneSource;
}

/**
 * The zone that applies to a member in an organization. A zone that `isKnown` refuses (one this
 * runtime has no rules for, say a browser older than the server) is passed over, not trusted.
 */
export function applicableTimeZone(
  organizationZone: string | null | undefined,
  memberZone: string | null | undefined,
  isKnown: (zone: string) => boolean = isTimeZone,
): ApplicableTimeZone {
  if (organizationZone && isKnown(organizationZone)) {
    return { zone: organizationZone, source: 'organization' };
  }
  if (memberZone && isKnown(memberZone)) return { zone: memberZone, source: 'member' };
  return { zone: FALLBACK_TIME_ZONE, source: 'default' };
}

/** Why the zone applies, in words for the member it applies to. */
export function timeZoneReason(source: TimeZoneSource): string {
  switch (source) {
    case 'organization':
      return "the organization's time zone";
    case 'member':
      return 'your time zone; the organization has none set';
    case 'default':
      return 'neither the organization nor you have set a time zone';
  }
}

/** The zone named with why it applies: "Europe/Paris (the organization's time zone)". */
export const describeTimeZone = (tz: ApplicableTimeZone) =>
  `${tz.zone} (${timeZoneReason(tz.source)})`;

export const TIME_ZONE_PARAM_MESSAGE =
  'The time zone must be an IANA name such as Europe/Paris (timezone=Europe/Paris).';

/**
 * A `timezone` query parameter: an IANA name. Left out, the server uses the zone that applies to
 * the caller (`applicableTimeZone`).
 */
export const timeZoneParam = () =>
  z
    .string({ error: TIME_ZONE_PARAM_MESSAGE })
    .trim()
    .max(64, TIME_ZONE_PARAM_MESSAGE)
    .refine(isTimeZone, TIME_ZONE_PARAM_MESSAGE)
    .optional();

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An instant as people read it in `zone`, the zone named: "Jan 31, 2030, 9:00 AM (Europe/Paris)".
 * Written from the wall time rather than by `Intl`'s own formatting, whose spaces and words vary
 * between runtimes, so the server's sentences and the web's tests read the same everywhere.
 */
export function formatInstantIn(ms: number, zone: string): string {
  const w = wallTimeAt(ms, zone);
  const hour = w.hour % 12 === 0 ? 12 : w.hour % 12;
  const minute = String(w.minute).padStart(2, '0');
  return `${MONTHS[w.month - 1]} ${w.day}, ${w.year}, ${hour}:${minute} ${w.hour < 12 ? 'AM' : 'PM'} (${zone})`;
}
