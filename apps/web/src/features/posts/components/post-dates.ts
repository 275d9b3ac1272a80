import { formatInZone } from '@/lib/zoned-time';

/** docs/product.md#messages: a date that cannot be read shows this, never "NaN" or a crash. */
export const INVALID_DATE = 'Invalid date';

export const DATE_TIME_FORMAT = 'MMM D, YYYY h:mm A';
export const DATE_FORMAT = 'MMM D, YYYY';

/**
 * A stored time in the zone that applies to the reader (`useTimeZone`: the organization's, else
 * their own, else UTC), 'Invalid date' when unreadable, `empty` when absent.
 */
export function formatPostDate(
  value: string | null | undefined,
  zone: string,
  { format = DATE_TIME_FORMAT, empty = 'Not scheduled' }: { format?: string; empty?: string } = {},
): string {
  if (value === null || value === undefined || value === '') return empty;
  return formatInZone(value, zone, format) ?? INVALID_DATE;
}
