/** Text and form helpers of the emulators' pages. */

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Splits a comma-separated form field into distinct trimmed names. */
export const splitList = (value: string) => [
  ...new Set(
    value
      // Commas inside brackets belong to the entry: "Shop (ANALYZE, MODERATE)".
      .split(/,(?![^()]*\))/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/**
 * A network handle made from a display name: lower case, runs of other characters as `_`, no
 * `_` at either end, at most `max` characters; `fallback` when nothing is left.
 * `extra` names the punctuation the network allows besides letters, digits and `_` (".").
 */
export function handleOf(name: string, fallback: string, max = Infinity, extra = ''): string {
  const other = new RegExp(`[^a-z0-9_${extra.replace(/[\]\\^-]/g, '\\$&')}]+`, 'g');
  return (
    name
      .toLowerCase()
      .replace(other, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, max) || fallback
  );
}
