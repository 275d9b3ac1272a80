import { describe, expect, it } from 'vitest';
import { PlatformError } from '../errors.js';
import { chunkPlanProblem } from '../../sandbox/tiktok/rules.js';
import {
  asUnknownOutcome,
  chunkPlan,
  failedPublish,
  photoTitle,
  privacyLevelFor,
} from './publish-rules.js';

const MB = 1024 * 1024;

describe('TikTok publishing rules', () => {
  it.each([
    [1 * MB, 10 * MB, { chunkSize: 1 * MB, count: 1 }],
    [7 * MB, 10 * MB, { chunkSize: 7 * MB, count: 1 }],
    [25 * MB, 10 * MB, { chunkSize: 10 * MB, count: 2 }],
    [11 * MB, 5 * MB, { chunkSize: 5 * MB, count: 2 }],
    [4096 * MB, 10 * MB, { chunkSize: 10 * MB, count: 409 }],
  ])('cuts %i bytes in chunks TikTok accepts', (size, preferred, plan) => {
    expect(chunkPlan(size, preferred)).toEqual(plan);
    expect(
      chunkPlanProblem({ videoSize: size, chunkSize: plan.chunkSize, totalChunks: plan.count }),
    ).toBeNull();
  });

  it('cuts a photo title at 90 UTF-16 units without splitting an emoji', () => {
    expect(photoTitle('Short title\nbody')).toBe('Short title');
    const title = photoTitle(`${'a'.repeat(89)}😀 and more`);
    expect(title).toBe('a'.repeat(89));
  });

  it('picks the most public privacy level offered', () => {
    expect(privacyLevelFor({ privacy_level_options: ['SELF_ONLY', 'PUBLIC_TO_EVERYONE'] })).toBe(
      'PUBLIC_TO_EVERYONE',
    );
    expect(privacyLevelFor({ privacy_level_options: ['SELF_ONLY'] })).toBe('SELF_ONLY');
    expect(() => privacyLevelFor({})).toThrow(PlatformError);
  });

  it('explains failed publishes and classes the caps', () => {
    expect(failedPublish('video_pull_failed')).toMatchObject({
      kind: 'bad_request',
      message: 'TikTok could not download the video from Herald. (TikTok said: video_pull_failed)',
    });
    expect(failedPublish('spam_risk_too_many_posts').kind).toBe('rate_limited');
    expect(failedPublish(undefined).message).toContain('(TikTok said: unknown)');
  });

  it('makes an unclear init failure an unknown outcome, and nothing else', () => {
    const unclear = new PlatformError('transient', 'x', { code: 'internal_error' });
    expect((asUnknownOutcome(unclear) as PlatformError).kind).toBe('unknown_outcome');
    const clear = new PlatformError('bad_request', 'x');
    expect(asUnknownOutcome(clear)).toBe(clear);
  });
});
