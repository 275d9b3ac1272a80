import { describe, expect, it } from 'vitest';
import {
  altTextLimitFor,
  applyLinkTracking,
  imagesWithoutAltText,
  LinkTrackingSchema,
} from './composer-extras.js';

const tracking = LinkTrackingSchema.parse({ campaign: 'spring' });

describe('applyLinkTracking', () => {
  it('adds the UTM parameters to each link, the network as source', () => {
    expect(applyLinkTracking('Read https://example.com/a and http://b.test', tracking, 'X')).toBe(
      'Read https://example.com/a?utm_source=x&utm_medium=social&utm_campaign=spring and http://b.test?utm_source=x&utm_medium=social&utm_campaign=spring',
    );
  });

  it('keeps query strings, fragments and sentence punctuation', () => {
    expect(applyLinkTracking('See https://shop.test/p?id=7#reviews.', tracking, 'LinkedIn')).toBe(
      'See https://shop.test/p?id=7&utm_source=linkedin&utm_medium=social&utm_campaign=spring#reviews.',
    );
    expect(applyLinkTracking('(https://x.test/)', tracking, 'Threads')).toBe(
      '(https://x.test/?utm_source=threads&utm_medium=social&utm_campaign=spring)',
    );
  });

  it('never adds a parameter twice: applying again changes nothing', () => {
    const once = applyLinkTracking('Go https://example.com/?a=1', tracking, 'Facebook');
    expect(applyLinkTracking(once, tracking, 'Facebook')).toBe(once);
    // A link that already names its source keeps it.
    expect(applyLinkTracking('https://e.test/?utm_source=newsletter', tracking, 'X')).toBe(
      'https://e.test/?utm_source=newsletter&utm_medium=social&utm_campaign=spring',
    );
  });

  it('uses the chosen source, term and content, encoded', () => {
    const custom = LinkTrackingSchema.parse({
      campaign: 'launch',
      source: 'herald',
      medium: 'organic',
      term: 'shoes',
      content: 'v2',
    });
    expect(applyLinkTracking('https://e.test', custom, 'X')).toBe(
      'https://e.test?utm_source=herald&utm_medium=organic&utm_campaign=launch&utm_term=shoes&utm_content=v2',
    );
  });

  it('leaves the text alone without tracking or a campaign', () => {
    expect(applyLinkTracking('https://e.test', null, 'X')).toBe('https://e.test');
    expect(applyLinkTracking('https://e.test', { ...tracking, campaign: ' ' }, 'X')).toBe(
      'https://e.test',
    );
  });

  it('refuses values that would break a link', () => {
    expect(LinkTrackingSchema.safeParse({ campaign: 'a&b' }).success).toBe(false);
    expect(LinkTrackingSchema.safeParse({ campaign: 'two words' }).success).toBe(false);
  });
});

describe('alt text rules', () => {
  it('takes the strictest limit of the networks a file goes to', () => {
    expect(altTextLimitFor(['LinkedIn'])).toBe(4086);
    expect(altTextLimitFor(['LinkedIn', 'X'])).toBe(1000);
  });

  it('counts the images without alt text, not videos', () => {
    expect(
      imagesWithoutAltText([
        { kind: 'image', altText: 'A dog' },
        { kind: 'image', altText: ' ' },
        { kind: 'image' },
        { kind: 'video' },
      ]),
    ).toBe(2);
  });
});
