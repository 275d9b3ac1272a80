import { describe, expect, it } from 'vitest';
import { ALT_TEXT_LIMITS, ALT_TEXT_MAX } from './composer-extras.js';
import {
  FIRST_COMMENT_LIMITS,
  FIRST_COMMENT_NETWORKS,
  firstCommentIsPost,
  supportsFirstComment,
  supportsThread,
  THREAD_NETWORKS,
} from './follow-ups.js';
import {
  isPlatformName,
  NETWORK_TRAITS,
  networksWhere,
  networkTraitsOf,
  platformSlug,
} from './network-traits.js';
import { PLATFORM_NAMES } from './platforms.js';
import { followUpRuleProblems } from './publish-rules.js';

describe('NETWORK_TRAITS', () => {
  it('has one entry per network, each with a distinct lowercase slug', () => {
    expect(Object.keys(NETWORK_TRAITS).sort()).toEqual([...PLATFORM_NAMES].sort());
    const slugs = PLATFORM_NAMES.map((name) => NETWORK_TRAITS[name].slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9-]+$/);
  });

  it('gives the tables derived from it in the order PLATFORM_NAMES lists the networks', () => {
    expect(THREAD_NETWORKS).toEqual(['X', 'Threads', 'Mastodon', 'Bluesky']);
    expect(FIRST_COMMENT_NETWORKS).toEqual([
      'X',
      'Instagram',
      'Facebook',
      'LinkedIn',
      'Mastodon',
      'Bluesky',
    ]);
    expect(FIRST_COMMENT_LIMITS).toEqual({
      X: 'post',
      Instagram: { max: 2_200, counting: 'codepoints' },
      Facebook: { max: 8_000, counting: 'utf16' },
      LinkedIn: { max: 1_250, counting: 'codepoints' },
      Mastodon: 'post',
      Bluesky: 'post',
    });
    expect(ALT_TEXT_LIMITS).toEqual({
      X: 1000,
      Instagram: 1000,
      Facebook: 1000,
      Threads: 1000,
      LinkedIn: 4086,
      Mastodon: 1500,
      Bluesky: 2000,
      Pinterest: 500,
    });
    expect(ALT_TEXT_MAX).toBe(4086);
  });

  it('explains comments out of reach on TikTok, Google Business Profile and Pinterest, where no API reads them', () => {
    expect(networksWhere((t) => t.commentsElsewhere !== null)).toEqual([
      'TikTok',
      'Google Business Profile',
      'Pinterest',
    ]);
  });

  it('knows a network only by its exact name', () => {
    expect(isPlatformName('TikTok')).toBe(true);
    expect(isPlatformName('tiktok')).toBe(false);
    expect(isPlatformName('constructor')).toBe(false);
    expect(networkTraitsOf('Friendica')).toBeNull();
    expect(networkTraitsOf('pinterest')).toBeNull();
    expect(supportsThread('Threads')).toBe(true);
    expect(supportsThread('toString')).toBe(false);
    expect(supportsFirstComment('TikTok')).toBe(false);
    expect(firstCommentIsPost('X')).toBe(true);
    expect(firstCommentIsPost('LinkedIn')).toBe(false);
  });

  it('names URL segments by the slug, and an unknown network by its lowercase name', () => {
    expect(platformSlug('LinkedIn')).toBe('linkedin');
    expect(platformSlug('Mastodon')).toBe('mastodon');
    expect(platformSlug('Bluesky')).toBe('bluesky');
  });

  it('says which networks take threads when one does not', () => {
    const [problem] = followUpRuleProblems('Facebook', {
      threadParts: ['two'],
      firstComment: null,
    });
    expect(problem?.message).toBe(
      'Facebook: Facebook posts cannot be a thread; only X, Threads, Mastodon and Bluesky posts can have several parts. Remove the extra parts for this account.',
    );
  });
});
