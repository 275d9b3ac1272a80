import { describe, expect, it } from 'vitest';
import { formatUsd, X_PRICES, xCostSentence, xPostsCost, xTextHasUrl } from './x-pricing.js';

describe('X pricing', () => {
  it('keeps X’s post prices: $0.015 a post, $0.20 with a URL', () => {
    expect(X_PRICES.postUsd).toBe(0.015);
    expect(X_PRICES.postWithUrlUsd).toBe(0.2);
    expect(X_PRICES.source).toMatch(/^https:\/\/docs\.x\.com\//);
  });

  it('sees a URL as X links it, with or without a scheme', () => {
    expect(xTextHasUrl('Read https://example.com/a?b=1')).toBe(true);
    expect(xTextHasUrl('see example.com today')).toBe(true);
    expect(xTextHasUrl('no link here, just text. And @someone #tag')).toBe(false);
  });

  it('adds up a thread and its first comment, each a post of its own', () => {
    expect(xPostsCost(['one', 'two', 'three'])).toEqual({ posts: 3, withUrl: 0, totalUsd: 0.045 });
    expect(xPostsCost(['one https://x.co/1', 'two'])).toEqual({
      posts: 2,
      withUrl: 1,
      totalUsd: 0.215,
    });
  });

  it('formats prices as X writes them', () => {
    expect(formatUsd(0.015)).toBe('$0.015');
    expect(formatUsd(0.2)).toBe('$0.20');
    expect(formatUsd(0.045)).toBe('$0.045');
    expect(formatUsd(1.23)).toBe('$1.23');
  });

  it('says what X charges for the post as written', () => {
    expect(xCostSentence(['Hello'])).toBe(
      'X charges about $0.015 for this post ($0.20 with a link).',
    );
    expect(xCostSentence(['Hello https://example.com'])).toBe(
      'X charges about $0.20 for this post because it has a link ($0.015 without).',
    );
    expect(xCostSentence(['Hello', 'part two', 'first comment'])).toBe(
      'X charges about $0.045 for these 3 posts (each $0.015; $0.20 with a link).',
    );
    expect(xCostSentence(['Hello', 'more at example.com'])).toBe(
      'X charges about $0.215 for these 2 posts (1 with a link at $0.20, 1 at $0.015).',
    );
  });
});
