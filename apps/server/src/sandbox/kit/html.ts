/** Text and form helpers of the emulators' pages. */

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The origin of a URL, or null when it is not an absolute URL. */
export function originOf(url: string | undefined) {
  try {
    return new URL(url ?? '').origin;
  } catch {
    return null;
  }
}

/** Splits a comma-separated form field into distinct trimmed names. */
export const splitList = (value: string) => [
  ...new Set(
    value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];
