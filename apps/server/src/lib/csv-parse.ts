/**
 * Reads CSV as RFC 4180 writes it (and as spreadsheets export it): comma separated, fields in
 * double quotes may hold commas, quotes ("") and line breaks; CRLF or LF line ends; a UTF-8 BOM
 * is dropped; blank lines are skipped. Yields each record with its number (1-based, as a
 * spreadsheet numbers rows) and the line it starts on. Throws CsvSyntaxError naming the line of
 * an unclosed quote.
 */
export class CsvSyntaxError extends Error {}

export function* parseCsv(text: string): Generator<{ row: number; line: number; cells: string[] }> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let row = 0;
  const n = text.length;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    let cell = '';
    for (;;) {
      if (text[i] === '"') {
        // A quoted part, copied in slices between quotes (one string per cell, not one per
        // character: joined characters would keep a chain of small strings alive per cell).
        const opened = line;
        i++;
        for (;;) {
          const quote = text.indexOf('"', i);
          if (quote < 0) {
            throw new CsvSyntaxError(
              `Line ${opened}: a quoted field is never closed (a closing quote is missing).`,
            );
          }
          const piece = text.slice(i, quote);
          for (let at = piece.indexOf('\n'); at >= 0; at = piece.indexOf('\n', at + 1)) line++;
          cell += piece;
          i = quote + 1;
          if (text[i] === '"') {
            cell += '"';
            i++;
            continue;
          }
          break;
        }
      }
      // Unquoted part (or what follows a closing quote up to the separator).
      const from = i;
      while (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') i++;
      if (i > from) cell += text.slice(from, i);
      if (i < n && text[i] === ',') {
        cells.push(cell);
        cell = '';
        i++;
        continue;
      }
      cells.push(cell);
      if (text[i] === '\r') i++;
      if (text[i] === '\n') i++;
      line++;
      break;
    }
    // Blank lines are skipped.
    if (cells.length === 1 && cells[0]!.trim() === '') continue;
    row++;
    yield { row, line: start, cells };
  }
}
