import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.js';

describe('csv', () => {
  it('quotes every text cell, doubling the quotes', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('')).toBe('""');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('leaves absent values empty, never 0, and numbers unquoted', () => {
    expect(csvLine([null, 0, undefined, 12, 0.25])).toBe(',0,,12,0.25\r\n');
  });

  it('keeps a cell whole where a spreadsheet splits on semicolons or tabs', () => {
    // Excel in many European locales splits an unquoted line on `;`: `=1+2` would be a formula.
    expect(csvCell('semi75;=1+2')).toBe('"semi75;=1+2"');
    expect(csvCell('tab\t@SUM(1)')).toBe('"tab\t@SUM(1)"');
    expect(csvLine(['a;-1', 3])).toBe('"a;-1",3\r\n');
  });

  it('defuses text that a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvCell('+1 for this')).toBe('"\'+1 for this"');
    expect(csvCell('-5% off')).toBe('"\'-5% off"');
    expect(csvCell('@channel')).toBe('"\'@channel"');
    expect(csvCell('\tcmd')).toBe('"\'\tcmd"');
    expect(csvCell('\rcmd')).toBe('"\'\rcmd"');
    // Numbers are data, not formulas.
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell('email me@x')).toBe('"email me@x"');
  });
});
