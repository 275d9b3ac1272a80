import { describe, expect, it } from 'vitest';
import { PlatformError } from './errors.js';
import { refuseByRules } from './publish-guard.js';
import { testMedia } from '../test/publish-media.js';

/** The refusal an adapter throws before calling its network, or null when it would call. */
function refusal(network: string, text: string, media = [] as ReturnType<typeof testMedia>[]) {
  try {
    refuseByRules(network, { text, media });
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(PlatformError);
    return err as PlatformError;
  }
}

describe('adapters refuse by the shared rule set, before calling their network', () => {
  it('X: an image beside a video, and a second cashtag', () => {
    expect(refusal('X', 'Launch', [testMedia('image'), testMedia('video')])).toMatchObject({
      kind: 'bad_request',
      details: { code: 'x.media-mix' },
    });
    expect(refusal('X', '$TSLA and $AAPL')?.details.code).toBe('x.cashtags');
    expect(refusal('X', '$TSLA only')).toBeNull();
  });

  it('Threads: a sixth link', () => {
    const links = (n: number) =>
      Array.from({ length: n }, (_, i) => `https://example.com/${i}`).join(' ');
    expect(refusal('Threads', links(5))).toBeNull();
    expect(refusal('Threads', links(6))).toMatchObject({
      kind: 'bad_request',
      details: { code: 'threads.links' },
    });
  });

  it('leaves the text’s length to the network (an X Premium account writes more)', () => {
    expect(refusal('X', 'a'.repeat(1000))).toBeNull();
  });
});
