import { describe, expect, it } from 'vitest';
import { PlatformError } from '../errors.js';
import type { StoredAccount } from '../types.js';
import { THREADS_TIMING } from './limits.js';
import type { ThreadsPublishApi } from './publish-api.js';
import { createThreadsPublishing } from './publishing.js';

const account: StoredAccount = {
  externalId: '42',
  tokens: {
    accessToken: 'TH-token',
    accessTokenExpiresAt: null,
    refreshToken: null,
    refreshTokenExpiresAt: null,
    scopes: [],
  },
  extra: {},
  secrets: {},
};

/** A Threads whose containers stay IN_PROGRESS; counts the status reads. */
function processingForever() {
  let reads = 0;
  const api = {
    containerStatus: async () => {
      reads += 1;
      return { id: 'c1', status: 'IN_PROGRESS' };
    },
    createContainer: async () => 'parent',
  } as unknown as ThreadsPublishApi;
  return { publishing: createThreadsPublishing(api, THREADS_TIMING), reads: () => reads };
}

const madeAgo = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('Threads container polling', () => {
  it('looks again 30 s after the container was made, then once a minute (Threads’ advice)', async () => {
    const { publishing } = processingForever();
    const video = (ageMs: number) => ({
      type: 'VIDEO',
      containerId: 'c1',
      preparedAt: madeAgo(ageMs),
    });
    const first = await publishing.check(account, video(0));
    expect(first.status).toBe('pending');
    expect(first.status === 'pending' && first.retryAfterMs).toBeGreaterThan(29_000);
    expect(first.status === 'pending' && first.retryAfterMs).toBeLessThanOrEqual(30_000);
    const later = await publishing.check(account, video(31_000));
    expect(later).toEqual({ status: 'pending', retryAfterMs: 60_000 });
    // Never past the 5 minutes: the last look is at the limit.
    const last = await publishing.check(account, video(4.5 * 60_000));
    expect(last.status === 'pending' && last.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('stops after 5 minutes with a sentence saying why', async () => {
    const { publishing } = processingForever();
    const err = await publishing
      .check(account, { type: 'VIDEO', containerId: 'c1', preparedAt: madeAgo(5 * 60_000 + 1) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect((err as PlatformError).kind).toBe('bad_request');
    expect((err as PlatformError).message).toBe(
      'The media was still processing at Threads 5 minutes after Herald sent it, the longest Threads advises waiting. Try publishing again, or with a shorter or smaller video.',
    );
  });

  it('follows the same schedule for the items of a carousel', async () => {
    const { publishing, reads } = processingForever();
    const result = await publishing.check(account, {
      type: 'CAROUSEL',
      childIds: ['a', 'b'],
      preparedAt: madeAgo(40_000),
    });
    expect(result).toEqual({ status: 'pending', retryAfterMs: 60_000 });
    expect(reads()).toBe(2);
  });
});
