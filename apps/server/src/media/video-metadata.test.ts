import { describe, expect, it } from 'vitest';
import { mkv, mov, mp4, webm } from '../test/media-fixtures.js';
import { bufferSource, readVideoFactsFrom } from './video-metadata.js';

describe('built-in video header reader (no ffprobe)', () => {
  it.each([
    ['mp4', mp4, 'video/mp4'],
    ['mov', mov, 'video/quicktime'],
    ['webm', webm, 'video/webm'],
    ['mkv', mkv, 'video/x-matroska'],
  ] as const)('reads duration and size of a %s', async (_name, make, mimeType) => {
    const file = await make({ seconds: 3, width: 320, height: 180 });
    const facts = await readVideoFactsFrom(bufferSource(file), mimeType);
    expect(facts).not.toBeNull();
    expect(facts?.width).toBe(320);
    expect(facts?.height).toBe(180);
    expect(facts?.durationSec).toBeCloseTo(3, 0);
    expect(Math.abs((facts?.durationSec ?? 0) - 3)).toBeLessThan(0.25);
  });

  it('reports a portrait phone video (stored turned) the way it is shown', async () => {
    const file = await mp4({ seconds: 1, width: 320, height: 240, rotate: 90 });
    const facts = await readVideoFactsFrom(bufferSource(file), 'video/mp4');
    expect(facts).toMatchObject({ width: 240, height: 320 });
  });

  it('finds the index at the end of a file that was not made "faststart"', async () => {
    const file = await mov({ seconds: 2, width: 160, height: 120 });
    // mov fixtures keep ffmpeg's default layout: mdat first, moov last.
    expect(file.indexOf('moov')).toBeGreaterThan(file.indexOf('mdat'));
    const facts = await readVideoFactsFrom(bufferSource(file), 'video/quicktime');
    expect(facts).toMatchObject({ width: 160, height: 120 });
  });

  it('gives up (null) on a truncated file or garbage, without throwing', async () => {
    const file = await mov({ seconds: 2, width: 160, height: 120 });
    const cut = file.subarray(0, Math.floor(file.length / 2));
    expect(await readVideoFactsFrom(bufferSource(cut), 'video/quicktime')).toBeNull();
    const noise = Buffer.from('this is not a video at all, just words'.repeat(10));
    expect(await readVideoFactsFrom(bufferSource(noise), 'video/mp4')).toBeNull();
    expect(await readVideoFactsFrom(bufferSource(noise), 'video/webm')).toBeNull();
    const webmHead = (await webm()).subarray(0, 40);
    expect(await readVideoFactsFrom(bufferSource(webmHead), 'video/webm')).toBeNull();
  });
});
