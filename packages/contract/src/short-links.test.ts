import { describe, expect, it } from 'vitest';
import { countText } from './media-rules.js';
import { shortLinkBase, usesShortLinks, withShortLinkLengths } from './short-links.js';

describe('withShortLinkLengths', () => {
  const base = shortLinkBase('https://herald.example.com/');

  it('counts each link as long as the short link it becomes, keeping the punctuation after it', () => {
    const text = withShortLinkLengths(
      'Menu https://a.co and https://cafe.test/a/long/path?x=1.',
      base,
    );
    expect(text).toBe(
      'Menu https://herald.example.com/l/xxxxxxxxxx and https://herald.example.com/l/xxxxxxxxxx.',
    );
    expect(countText(text)).toBe(5 + 39 + 5 + 39 + 1);
  });

  it('leaves X counting every link as 23 characters', () => {
    const text = withShortLinkLengths(`${'a'.repeat(256)} https://a.co`, base);
    expect(countText(text, 'x-weighted')).toBe(280);
  });

  it('changes nothing in a text without links', () => {
    expect(withShortLinkLengths('No links here.', base)).toBe('No links here.');
  });
});

describe('usesShortLinks', () => {
  it("takes the post's own choice, else the organization's", () => {
    expect(usesShortLinks(true, false)).toBe(true);
    expect(usesShortLinks(false, true)).toBe(false);
    expect(usesShortLinks(null, true)).toBe(true);
    expect(usesShortLinks(undefined, false)).toBe(false);
  });
});
