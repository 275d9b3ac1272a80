/**
 * Reads CSV text as a quote-honouring spreadsheet does with a given list separator: `,` in
 * English locales, `;` in many European ones (Excel takes the locale's list separator), a tab
 * when pasted. A quote opens a quoted stretch wherever it stands; inside it, `""` is a quote and
 * separators and line breaks are text.
 */
export function readCsvAs(text: string, separator: string): string[][] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === separator) {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}

/**
 * The cells a spreadsheet would run as formulas, read with any of the usual separators. Numbers
 * are data (-3 is not a formula); any other cell starting with = + - @ is.
 */
export function formulaCells(text: string): string[] {
  const found: string[] = [];
  for (const separator of [',', ';', '\t']) {
    for (const row of readCsvAs(text, separator)) {
      for (const cell of row) {
        if (/^[=+\-@]/.test(cell) && !/^[+-]?\d+(\.\d+)?$/.test(cell)) found.push(cell);
      }
    }
  }
  return found;
}
