import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.js';

describe('csv', () => {
  it('quotes cells with commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('leaves absent values empty, never 0', () => {
    expect(csvLine([null, 0, undefined, 12])).toBe(',0,,12\r\n');
  });

  it('defuses text that a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvCell('+1 for this')).toBe("'+1 for this");
    expect(csvCell('-5% off')).toBe("'-5% off");
    expect(csvCell('@channel')).toBe("'@channel");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    // Numbers are data, not formulas.
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell('email me@x')).toBe('email me@x');
  });
});
