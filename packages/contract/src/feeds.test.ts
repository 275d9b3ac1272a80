import { describe, expect, it } from 'vitest';
import { fitFeedText, renderFeedTemplate } from './feeds.js';
import { countText } from './media-rules.js';

const values = {
  title: 'A new release',
  link: 'https://blog.example/releases/42',
  summary: 'It is faster.',
  author: 'Ada',
  feed: 'Example blog',
};

describe('renderFeedTemplate', () => {
  it('uses the title and the link by default', () => {
    expect(renderFeedTemplate(null, values)).toBe(
      'A new release\n\nhttps://blog.example/releases/42',
    );
  });

  it('replaces every placeholder and collapses the lines an empty part leaves', () => {
    expect(
      renderFeedTemplate('{feed}: {title}\n\n{summary}\n\n\n{link}', { ...values, summary: '' }),
    ).toBe('Example blog: A new release\n\nhttps://blog.example/releases/42');
  });
});

describe('fitFeedText', () => {
  const link = 'https://blog.example.com/a/very/long/path/that/must/never/be/cut/in/the/middle';

  it('answers a text that fits as it is', () => {
    expect(fitFeedText(`Short\n\n${link}`, 500)).toBe(`Short\n\n${link}`);
  });

  it('drops the words past the limit, marks the cut and keeps the link whole on its line', () => {
    const text = `${'word '.repeat(100).trim()}\n\n${link}`;
    const cut = fitFeedText(text, 120);
    expect(countText(cut)).toBeLessThanOrEqual(120);
    expect(cut.endsWith(`…\n\n${link}`)).toBe(true);
    expect(cut.startsWith('word word')).toBe(true);
  });

  it('keeps a link in the middle and counts it the network way (X: 23)', () => {
    const text = `Read ${link} now, ${'and more '.repeat(60)}`;
    const cut = fitFeedText(text, 60, 'x-weighted');
    expect(cut).toContain(link);
    expect(countText(cut, 'x-weighted')).toBeLessThanOrEqual(60);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('answers the text unchanged when the link alone is over the limit', () => {
    const text = `Title ${link}`;
    expect(fitFeedText(text, 10)).toBe(text);
  });
});
