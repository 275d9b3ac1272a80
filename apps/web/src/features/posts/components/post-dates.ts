import dayjs from 'dayjs';

/** Spec §8: a date that cannot be read shows this, never "NaN" or a crash. */
export const INVALID_DATE = 'Invalid date';

export const DATE_TIME_FORMAT = 'MMM D, YYYY h:mm A';
export const DATE_FORMAT = 'MMM D, YYYY';

/** A stored time in the reader's zone, 'Invalid date' when unreadable, `empty` when absent. */
export function formatPostDate(
  value: string | null | undefined,
  { format = DATE_TIME_FORMAT, empty = 'Not scheduled' }: { format?: string; empty?: string } = {},
): string {
  if (value === null || value === undefined || value === '') return empty;
  const date = dayjs(value);
  return date.isValid() ? date.format(format) : INVALID_DATE;
}
