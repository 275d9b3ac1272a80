import { describe, expect, it } from 'vitest';
import { firstCommentLimitOf } from './follow-ups.js';
import { followUpProblems } from './publish-rules.js';
import type { MediaConstraints } from './platforms.js';

const x: MediaConstraints = {
  text: { maxLength: 280, counting: 'x-weighted', textOnlyAllowed: true },
};
const instagram: MediaConstraints = {
  text: { maxLength: 2200, counting: 'codepoints', textOnlyAllowed: true },
};
const facebook: MediaConstraints = {
  text: { maxLength: 63_206, counting: 'utf16', textOnlyAllowed: true },
};
const linkedIn: MediaConstraints = {
  text: { maxLength: 3000, counting: 'codepoints', textOnlyAllowed: true },
};

const comment = (networkName: string, constraints: MediaConstraints, firstComment: string) =>
  followUpProblems({ networkName, label: networkName, constraints }, { firstComment });

describe('a first comment is checked by its network comment rule, not the post rule', () => {
  it('LinkedIn: 1,250 characters, though its posts take 3,000', () => {
    expect(comment('LinkedIn', linkedIn, 'a'.repeat(1250))).toEqual([]);
    expect(comment('LinkedIn', linkedIn, 'a'.repeat(1251))).toEqual([
      'LinkedIn: the first comment is too long for a comment on LinkedIn (1251 of 1250 characters).',
    ]);
  });

  it('Facebook: 8,000 characters, though its posts take 63,206', () => {
    expect(comment('Facebook', facebook, 'a'.repeat(8000))).toEqual([]);
    expect(comment('Facebook', facebook, 'a'.repeat(8001))[0]).toContain(
      'too long for a comment on Facebook (8001 of 8000 characters)',
    );
  });

  it('Instagram: 2,200 characters', () => {
    expect(comment('Instagram', instagram, 'a'.repeat(2200))).toEqual([]);
    expect(comment('Instagram', instagram, 'a'.repeat(2201))[0]).toContain(
      'too long for a comment on Instagram (2201 of 2200 characters)',
    );
  });

  it("X: a post of the account's own, 280 weighted characters with every URL as 23", () => {
    const link = `https://example.com/${'long-path/'.repeat(20)}`;
    // 250 + 1 + 23 = 274: fits, though the raw text is far longer than 280.
    expect(comment('X', x, `${'a'.repeat(250)} ${link}`)).toEqual([]);
    expect(comment('X', x, 'a'.repeat(281))).toEqual([
      'X: the first comment is too long for X, where it is a post of its own (281 of 280 characters).',
    ]);
    // An X Premium account's own limit applies to its self-reply as to its posts.
    expect(
      firstCommentLimitOf('X', {
        text: { maxLength: 25_000, counting: 'x-weighted', textOnlyAllowed: true },
      }),
    ).toEqual({ max: 25_000, counting: 'x-weighted' });
  });

  it('a network without first comments is refused, naming it', () => {
    expect(comment('Threads', instagram, 'Hi')[0]).toContain('Threads has no first comment');
    expect(comment('TikTok', instagram, 'Hi')[0]).toContain(
      'TikTok does not let Herald publish a first comment',
    );
    expect(firstCommentLimitOf('TikTok', instagram)).toBeNull();
  });
});
