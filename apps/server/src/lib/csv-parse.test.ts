import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv } from './csv-parse.js';

const cellsOf = (text: string) => [...parseCsv(text)].map((r) => r.cells);

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const text = '\ufefftext,accounts\r\n"Hello, ""world""",x\n"two\nlines",\n\n"""",""\n';
    expect(cellsOf(text)).toEqual([
      ['text', 'accounts'],
      ['Hello, "world"', 'x'],
      ['two\nlines', ''],
      ['"', ''],
    ]);
  });

  it('numbers records and the lines they start on across quoted line breaks', () => {
    const rows = [...parseCsv('a,b\n"1\n2\n3",x\nlast,y\n')];
    expect(rows.map((r) => [r.row, r.line])).toEqual([
      [1, 1],
      [2, 2],
      [3, 5],
    ]);
    expect(rows[2]!.cells).toEqual(['last', 'y']);
  });

  it('keeps text after a closing quote and text around an unquoted cell', () => {
    expect(cellsOf('"quoted" tail,plain text\n')).toEqual([['quoted tail', 'plain text']]);
  });

  it('names the line of a quote never closed', () => {
    expect(() => cellsOf('a,b\nfine,x\n"open,x\nmore\n')).toThrow(CsvSyntaxError);
    expect(() => cellsOf('a,b\nfine,x\n"open,x\nmore\n')).toThrow('Line 3:');
  });
});
