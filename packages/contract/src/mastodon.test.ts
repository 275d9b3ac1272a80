import { describe, expect, it } from 'vitest';
import { MastodonPostSettingsSchema } from './mastodon.js';

describe('MastodonPostSettingsSchema', () => {
  it('fills what is not said with the server’s own defaults, and reads codes in any case', () => {
    expect(MastodonPostSettingsSchema.parse({})).toEqual({
      spoilerText: '',
      visibility: null,
      language: null,
    });
    expect(
      MastodonPostSettingsSchema.parse({
        spoilerText: '  CW  ',
        visibility: 'direct',
        language: 'DE',
      }),
    ).toEqual({ spoilerText: 'CW', visibility: 'direct', language: 'de' });
  });

  it('refuses what Mastodon would not take, with a sentence', () => {
    const message = (value: object) =>
      MastodonPostSettingsSchema.safeParse(value).error?.issues[0]?.message;
    expect(message({ visibility: 'followers' })).toMatch(/public, unlisted, private/);
    expect(message({ language: 'eng' })).toMatch(/two-letter ISO 639-1/);
    expect(message({ spoilerText: 'a'.repeat(501) })).toMatch(/at most 500/);
  });
});
