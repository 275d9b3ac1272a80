import { z } from 'zod';

/** No text Herald stores may hold NUL: PostgreSQL refuses it in text columns. */
export const NUL_MESSAGE =
  'Text may not contain the NUL character (\\u0000). Remove it and send again.';

export const hasNul = (value: string) => value.includes('\u0000');

/** True when any string in a JSON value (keys included) holds NUL. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return hasNul(value);
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  // Bytes (a raw webhook body, a file) are not text: walking a Buffer's every index was most of
  // a webhook delivery's CPU.
  if (ArrayBuffer.isView(value)) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => hasNul(key) || containsNul(item, depth + 1));
}

/** Years PostgreSQL, JavaScript and every network agree on. */
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

/**
 * An ISO 8601 date and time within years 1000–9999 — the one date-time schema of requests.
 * (JavaScript reads "+275760-09-13T00:00:00Z", but no database column or network does.)
 */
export const isoDateTime = (label: string) =>
  z.string().refine((value) => {
    const time = Date.parse(value);
    if (Number.isNaN(time)) return false;
    const year = new Date(time).getUTCFullYear();
    return year >= MIN_YEAR && year <= MAX_YEAR;
  }, `${label} must be a date and time between the years ${MIN_YEAR} and ${MAX_YEAR}, like 2030-01-31T09:00:00Z.`);
