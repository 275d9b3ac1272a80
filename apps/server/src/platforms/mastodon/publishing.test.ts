import { describe, expect, it } from 'vitest';
import type { StoredAccount } from '../types.js';
import type { MastodonApi } from './api.js';
import { createMastodonPublishing } from './publishing.js';

const account = {
  tokens: { accessToken: 'token' },
  extra: { instance: 'social.example', accountId: '1' },
} as unknown as StoredAccount;

/** An API that records the statuses asked for. */
function recording() {
  const bodies: Array<Record<string, unknown>> = [];
  const api = {
    postStatus: async (_i: string, _t: string, _k: string, body: Record<string, unknown>) => {
      bodies.push(body);
      return { id: '9', url: 'https://social.example/@a/9', content: '', created_at: '' };
    },
  } as unknown as MastodonApi;
  return { bodies, publishing: createMastodonPublishing(api) };
}

describe('Mastodon statuses carry the post’s settings', () => {
  it('sends the content warning (marking it sensitive), visibility and language', async () => {
    const { bodies, publishing } = recording();
    await publishing.finalize(
      account,
      {
        text: 'Spoilers',
        media: [],
        idempotencyKey: 'k',
        settings: { spoilerText: ' Film ending ', visibility: 'private', language: 'EN' },
      },
      {},
    );
    expect(bodies[0]).toEqual({
      status: 'Spoilers',
      spoiler_text: 'Film ending',
      sensitive: true,
      visibility: 'private',
      language: 'en',
    });
  });

  it('leaves out what was not chosen, so the account’s defaults apply', async () => {
    const { bodies, publishing } = recording();
    await publishing.finalize(
      account,
      {
        text: 'Plain',
        media: [],
        idempotencyKey: 'k',
        settings: { spoilerText: '', visibility: null, language: null },
      },
      {},
    );
    expect(bodies[0]).toEqual({ status: 'Plain' });
  });
});
