/**
 * How a report writes figures and days: the analytics screen's own rules (a missing figure is a
 * dash, never 0; rates to two decimals under 10 %, else one; changes signed), so a client reading
 * the PDF and a member reading the screen see the same text for the same number.
 */
const numberFormat = new Intl.NumberFormat('en-US');

export const NO_VALUE = '—';

export const formatCount = (value: number | null) =>
  value === null ? NO_VALUE : numberFormat.format(Math.round(value));

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

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const shortDayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

/** A day of a range (`2026-03-01`) as "1 Mar 2026", or "1 Mar" without the year. */
export const formatDay = (day: string, withYear = true) =>
  (withYear ? dayFormat : shortDayFormat).format(new Date(`${day}T00:00:00Z`));

/** A range of days: "1 Mar 2026 – 7 Mar 2026", or one day alone. */
export const formatRange = (from: string, to: string) =>
  from === to ? formatDay(from) : `${formatDay(from)} – ${formatDay(to)}`;

/** An instant as read in `zone`: "2 Mar 2026, 11:00". */
export function formatInstant(iso: string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: zone,
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')} ${part('month')} ${part('year')}, ${part('hour')}:${part('minute')}`;
}

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

/** Letters that lose no accent under NFKD but have a plain Latin spelling. */
const PLAIN: Record<string, string> = {
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ħ: 'h',
  ı: 'i',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
  ð: 'd',
};

/** A file name's part from free text: "Café & Co" → "cafe-co", "Łódź" → "lodz". */
export function slugOf(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[łøđħıßæœþð]/g, (c) => PLAIN[c]!)
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/g, '') || 'herald'
  );
}
