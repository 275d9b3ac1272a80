import { formatInZone } from '@/lib/zoned-time';

/** Number and change wording of the analytics screen; a missing figure is a dash, never 0. */

const numberFormat = new Intl.NumberFormat('en-US');
const compactFormat = new Intl.NumberFormat('en-US', {
  notation: 'compact',
  maximumFractionDigits: 1,
});

export const NO_VALUE = '—';

export const formatCount = (value: number | null) =>
  value === null ? NO_VALUE : numberFormat.format(Math.round(value));

export const formatCompact = (value: number) => compactFormat.format(value);

export const formatRate = (value: number | null) =>
  value === null ? NO_VALUE : `${(value * 100).toFixed(value < 0.1 ? 2 : 1)}%`;

/** A signed figure (followers gained): "+50", "−3". */
export const formatSigned = (value: number | null) =>
  value === null
    ? NO_VALUE
    : `${value > 0 ? '+' : value < 0 ? '−' : ''}${formatCount(Math.abs(value))}`;

/** The change against the previous period: "+12.5%", "−3.0%", "0%". */
export function formatChange(change: number): string {
  const percent = Math.abs(change * 100);
  const text = `${percent >= 100 ? Math.round(percent) : percent.toFixed(1)}%`;
  if (change > 0) return `+${text}`;
  if (change < 0) return `−${text}`;
  return '0%';
}

/** "3 Mar" for axis labels: a day of the range, as it is written ("2026-03-03"). */
export function formatDay(day: string, withYear = false): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  });
}

/** An instant's wall-clock time in the viewer's zone, 24-hour ("14:05"); a dash when unreadable. */
export const formatClock = (instant: string, zone: string) =>
  formatInZone(instant, zone, 'HH:mm') ?? NO_VALUE;

/** An instant's day and time in the viewer's zone ("3 Mar 2026, 14:05"). */
export const formatDayTime = (instant: string, zone: string) =>
  formatInZone(instant, zone, 'D MMM YYYY, HH:mm') ?? NO_VALUE;

/**
 * Okabe–Ito colours: told apart with every common colour-vision deficiency, and dark enough for
 * lines on white (yellow is left out).
 */
export const PALETTE = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#000000',
];
