import { countText } from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../errors.js';
import { respectRateLimits, serverOf } from './api.js';
import { describeMastodonError } from './errors.js';
import { constraintsOfServer, serverLimitsOf, storedLimitsOf } from './limits.js';

describe('the server a person types', () => {
  it.each([
    ['mastodon.social', 'mastodon.social'],
    ['  Mastodon.Social ', 'mastodon.social'],
    ['https://mastodon.social/about', 'mastodon.social'],
    ['@ada@hachyderm.io', 'hachyderm.io'],
    ['ada@hachyderm.io', 'hachyderm.io'],
    ['social.example:8443', 'social.example:8443'],
  ])('reads %j as %j', (typed, host) => {
    expect(serverOf(typed)).toBe(host);
  });

  it.each(['', 'localhost', 'not a server', 'http://', '@ada', 'exa mple.com'])(
    'finds no server in %j',
    (typed) => {
      expect(serverOf(typed)).toBeNull();
    },
  );
});

describe('a server’s limits', () => {
  it('reads what /api/v2/instance announces, a stock server’s where it says nothing', () => {
    const limits = serverLimitsOf({
      statuses: { max_characters: 1000, max_media_attachments: 6 },
      media_attachments: { image_size_limit: 8_000_000, supported_mime_types: ['image/png'] },
    });
    expect(limits).toMatchObject({
      maxCharacters: 1000,
      maxMedia: 6,
      imageSizeLimit: 8_000_000,
      videoSizeLimit: 99 * 1024 * 1024,
      descriptionLimit: 1500,
    });
    expect(constraintsOfServer(limits)).toMatchObject({
      text: { maxLength: 1000, counting: 'urls-23' },
      maxMediaPerPost: 6,
      image: { allowedMimeTypes: ['image/png'], maxFileSize: 8_000_000 },
    });
    expect(storedLimitsOf(limits)).toEqual(limits);
    expect(storedLimitsOf(undefined).maxCharacters).toBe(500);
  });

  it('counts every link as 23 characters, as Mastodon does', () => {
    const link = 'https://example.com/a/very/long/path/that/goes/on/and/on';
    expect(countText(`Read ${link} now`, 'urls-23')).toBe(5 + 23 + 4);
    expect(countText('héllo 👋', 'urls-23')).toBe(7);
  });

  it('counts a mention of someone on another server as its @name only', () => {
    expect(countText('Hi @ada@hachyderm.io!', 'urls-23')).toBe('Hi @ada!'.length);
    expect(countText('@lin and @grace@social.example', 'urls-23')).toBe('@lin and @grace'.length);
    // An address in a link or an email is not a mention.
    expect(countText('mail ada@hachyderm.io', 'urls-23')).toBe(21);
    expect(countText('https://x.example/@ada@hachyderm.io', 'urls-23')).toBe(23);
  });
});

describe('Mastodon’s refusals', () => {
  it('keeps the server’s words and waits until X-RateLimit-Reset', () => {
    const reset = new Date(Date.now() + 120_000).toISOString();
    const described = describeMastodonError(
      { error: 'Too many requests' },
      new Headers({ 'x-ratelimit-reset': reset }),
    );
    expect(described.message).toBe('Too many requests');
    expect(described.retryAfterSeconds).toBeGreaterThan(100);
    expect(describeMastodonError({ error: 'invalid_client' }, new Headers()).kind).toBe(
      'bad_request',
    );
  });
});

describe('keeping to a server’s rate limit', () => {
  it('waits for X-RateLimit-Reset once an answer says no request is left', async () => {
    let clock = Date.parse('2026-12-02T12:00:00Z');
    const reset = new Date(clock + 90_000).toISOString();
    let calls = 0;
    const http = respectRateLimits(
      async () => {
        calls += 1;
        return new Response('{}', {
          headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
        });
      },
      () => clock,
    );
    const init = { headers: { authorization: 'Bearer a' } };
    await http('https://social.example/api/v1/statuses', init);
    const waiting = await http('https://social.example/api/v1/statuses', init).catch((e) => e);
    expect(waiting).toBeInstanceOf(PlatformError);
    expect(waiting).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 90 } });
    // Another account on the same server, or the same token elsewhere, is not held back.
    await http('https://social.example/api/v1/statuses', {
      headers: { authorization: 'Bearer b' },
    });
    await http('https://other.example/api/v1/statuses', init);
    clock += 91_000;
    await http('https://social.example/api/v1/statuses', init);
    expect(calls).toBe(4);
  });
});
