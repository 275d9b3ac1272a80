import { describe, expect, it } from 'vitest';
import { PlatformError } from '../errors.js';
import { chunkPlanProblem } from '../../sandbox/tiktok/rules.js';
import { asUnknownOutcome, chunkPlan, failedPublish, photoTitle } from './publish-rules.js';
import { chosenSettings, creatorView } from './post-settings.js';
import { testMedia } from '../../test/publish-media.js';

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

  it('never picks a privacy level for the user, and keeps to what creator_info offers', () => {
    const creator = creatorView(
      { privacy_level_options: ['SELF_ONLY', 'FOLLOWER_OF_CREATOR'], comment_disabled: true },
      false,
    );
    const request = (settings: Record<string, unknown> | undefined) => ({
      text: 'x',
      media: [testMedia('image')],
      idempotencyKey: 'k',
      settings,
    });
    expect(() => chosenSettings(request(undefined), creator, 'photo')).toThrow(
      /^Choose who can see this TikTok post first/,
    );
    expect(() => chosenSettings(request({ privacyLevel: null }), creator, 'photo')).toThrow(
      /Choose who can see the TikTok post/,
    );
    expect(() =>
      chosenSettings(request({ privacyLevel: 'PUBLIC_TO_EVERYONE' }), creator, 'photo'),
    ).toThrow(/does not offer "Everyone" to this account/);
    expect(() =>
      chosenSettings(request({ privacyLevel: 'SELF_ONLY', allowComments: true }), creator, 'photo'),
    ).toThrow(/comments turned off/);
    expect(
      chosenSettings(request({ privacyLevel: 'FOLLOWER_OF_CREATOR' }), creator, 'photo'),
    ).toMatchObject({ privacyLevel: 'FOLLOWER_OF_CREATOR', autoAddMusic: false });
    // An inbox draft leaves every choice to the TikTok app.
    expect(chosenSettings(request({ mode: 'inbox' }), creator, 'photo').mode).toBe('inbox');
  });

  it('offers only SELF_ONLY while the app is unaudited', () => {
    const options = ['PUBLIC_TO_EVERYONE', 'SELF_ONLY'];
    expect(creatorView({ privacy_level_options: options }, true).privacyLevelOptions).toEqual([
      'SELF_ONLY',
    ]);
    expect(creatorView({ privacy_level_options: options }, false).privacyLevelOptions).toEqual(
      options,
    );
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
