/**
 * CSV as RFC 4180 writes it, made safe to open in a spreadsheet: a text cell starting with
 * = + - @ (or a tab or carriage return) would run as a formula in Excel, LibreOffice and Google
 * Sheets, so it gets a leading apostrophe (OWASP "CSV injection"). Numbers are never prefixed.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: null and undefined are empty (absent, not 0). */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One record, ended by CRLF as RFC 4180 asks. */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
