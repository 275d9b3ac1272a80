import { describe, expect, it } from 'vitest';
import { boundSentence, ECHO_MAX, SENTENCE_MAX } from './error-sentence.js';

describe('boundSentence', () => {
  it('leaves a sentence of words and identifiers as it is', () => {
    const sentence =
      'These accounts are not connected to this organization: 0b0f0c9e-8d1e-4a51-9a43-3c2d2b7f6a10. Connect them in Settings first.';
    expect(boundSentence(sentence)).toBe(sentence);
  });

  it('cuts a long run of echoed input to its start and an ellipsis', () => {
    const path = `/api/${'a'.repeat(5_000)}`;
    const bounded = boundSentence(`There is no GET ${path} in this API.`);
    expect(bounded).toBe(`There is no GET ${path.slice(0, ECHO_MAX)}… in this API.`);
  });

  it('never cuts an emoji in half', () => {
    const bounded = boundSentence(`Unknown: ${'😀'.repeat(200)}`);
    expect(bounded).toBe(`Unknown: ${'😀'.repeat(ECHO_MAX)}…`);
  });

  it('bounds the whole sentence when the echo has spaces in it', () => {
    const bounded = boundSentence(`There is no label "${'ab '.repeat(3_000)}" here.`);
    expect(Array.from(bounded)).toHaveLength(SENTENCE_MAX);
    expect(bounded.endsWith('…')).toBe(true);
  });
});
