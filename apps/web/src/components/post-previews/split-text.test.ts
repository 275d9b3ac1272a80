import { countText } from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { clampCaption, splitAtLimit } from './split-text';

describe('splitAtLimit', () => {
  it('keeps a text that fits whole', () => {
    expect(splitAtLimit('hello', 280, 'x-weighted')).toEqual(['hello', '']);
  });

  it("cuts where X stops counting, with X's weights (emoji count 2)", () => {
    const text = `${'a'.repeat(278)}😀😀`;
    const [within, overflow] = splitAtLimit(text, 280, 'x-weighted');
    expect(countText(within, 'x-weighted')).toBe(280);
    expect(overflow).toBe('😀');
  });

  it('never splits a surrogate pair', () => {
    const [within, overflow] = splitAtLimit('😀😀😀', 2, 'codepoints');
    expect(within).toBe('😀😀');
    expect(overflow).toBe('😀');
  });
});

describe('clampCaption', () => {
  it('cuts long captions at a word near the limit', () => {
    const { shown, isClamped } = clampCaption(`${'word '.repeat(30)}end`, 125);
    expect(isClamped).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(125);
    expect(shown.endsWith('word')).toBe(true);
  });

  it('leaves short captions alone', () => {
    expect(clampCaption('short', 125)).toEqual({ shown: 'short', isClamped: false });
  });
});
