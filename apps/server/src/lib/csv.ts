/**
 * CSV as RFC 4180 writes it, made safe to open in a spreadsheet (OWASP "CSV injection"):
 * - a text cell starting with = + - @ (or a tab or carriage return) would run as a formula in
 *   Excel, LibreOffice and Google Sheets, so it gets a leading apostrophe;
 * - every text cell is quoted, whatever it holds: Excel in many European locales splits a line on
 *   `;`, not `,`, so an unquoted `semi;=1+2` would become two cells, the second a formula. Inside
 *   quotes, no separator of any locale starts a new cell.
 * Numbers are neither quoted nor prefixed (a spreadsheet reads them as numbers), and absent
 * values stay empty.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: null and undefined are empty (absent, not 0). */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** One record, ended by CRLF as RFC 4180 asks. */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
