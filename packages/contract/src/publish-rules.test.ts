import { describe, expect, it } from 'vitest';
import type { MediaFacts } from './media-rules.js';
import { publishProblems, type PostShape } from './publish-rules.js';

const photo = (over: Partial<MediaFacts> = {}): MediaFacts => ({
  fileName: 'photo.jpg',
  mimeType: 'image/jpeg',
  size: 100_000,
  width: 1080,
  height: 1080,
  ...over,
});
const png = (over: Partial<MediaFacts> = {}) =>
  photo({ fileName: 'photo.png', mimeType: 'image/png', ...over });
const gif = () => photo({ fileName: 'loop.gif', mimeType: 'image/gif' });
const clip = (over: Partial<MediaFacts> = {}): MediaFacts => ({
  fileName: 'clip.mp4',
  mimeType: 'video/mp4',
  size: 1_000_000,
  width: 1080,
  height: 1920,
  durationSec: 30,
  ...over,
});

const post = (over: Partial<PostShape> = {}): PostShape => ({
  text: 'Hello',
  media: [],
  threadParts: [],
  firstComment: null,
  ...over,
});
const rules = (network: string, shape: PostShape, account?: { textLimit?: number | null }) =>
  publishProblems(network, shape, account).map((p) => p.rule);

describe('X', () => {
  it('takes up to 4 images together', () => {
    expect(publishProblems('X', post({ media: [photo(), png(), photo(), png()] }))).toEqual([]);
  });

  it('takes a video or a GIF only on its own', () => {
    expect(publishProblems('X', post({ media: [clip()] }))).toEqual([]);
    expect(publishProblems('X', post({ media: [gif()] }))).toEqual([]);
    expect(publishProblems('X', post({ media: [png(), clip()] }))).toEqual([
      {
        rule: 'x.media-mix',
        message:
          'X takes one video or one GIF per post, on its own. Keep only that file in the X version of this post.',
      },
    ]);
    expect(rules('X', post({ media: [photo(), gif()] }))).toEqual(['x.media-mix']);
  });

  it('takes one cashtag per post, in the post, each thread part and the first comment', () => {
    expect(publishProblems('X', post({ text: 'Watching $TSLA today' }))).toEqual([]);
    const [problem] = publishProblems('X', post({ text: '$TSLA and $AAPL are up' }));
    expect(problem).toEqual({
      rule: 'x.cashtags',
      message:
        'X takes one cashtag per post from apps like Herald; this post has 2 ($TSLA, $AAPL). Keep one in the X version of this post.',
    });
    expect(rules('X', post({ threadParts: ['$A $B'], firstComment: 'see $C and $D' }))).toEqual([
      'x.thread-part-cashtags',
      'x.first-comment-cashtags',
    ]);
  });

  it('counts text against the account’s own limit (X Premium)', () => {
    const long = post({ text: 'a'.repeat(1000) });
    expect(rules('X', long)).toEqual(['x.text-length']);
    expect(rules('X', long, { textLimit: 25_000 })).toEqual([]);
  });
});

describe('Threads', () => {
  const links = (n: number) =>
    Array.from({ length: n }, (_, i) => `https://example.com/page-${i}`).join(' ');

  it('refuses more than 5 distinct links (since 2025-12-22)', () => {
    expect(publishProblems('Threads', post({ text: links(5) }))).toEqual([]);
    // The same link twice counts once.
    expect(
      publishProblems('Threads', post({ text: `${links(5)} https://example.com/page-0` })),
    ).toEqual([]);
    expect(publishProblems('Threads', post({ text: links(6) }))).toEqual([
      {
        rule: 'threads.links',
        message:
          'Threads refuses a post with more than 5 links; this post has 6. Remove links from the Threads version of this post until 5 are left.',
      },
    ]);
  });

  it('counts bare domains as links, and checks each thread part', () => {
    const bare = 'a.com b.com c.com d.com e.com f.com';
    expect(rules('Threads', post({ text: bare }))).toEqual(['threads.links']);
    expect(rules('Threads', post({ threadParts: ['fine', links(6)] }))).toEqual([
      'threads.thread-part-links',
    ]);
  });

  it('has no first comment', () => {
    expect(rules('Threads', post({ firstComment: 'more below' }))).toEqual([
      'threads.first-comment',
    ]);
  });
});

describe('Facebook, LinkedIn and TikTok: a video goes alone', () => {
  it('Facebook: photos, or one video', () => {
    expect(publishProblems('Facebook', post({ media: [photo(), png()] }))).toEqual([]);
    expect(rules('Facebook', post({ media: [photo(), clip()] }))).toEqual(['facebook.media-mix']);
  });

  it('LinkedIn: images, or one video', () => {
    expect(publishProblems('LinkedIn', post({ media: [photo(), png()] }))).toEqual([]);
    expect(rules('LinkedIn', post({ media: [photo(), clip()] }))).toEqual(['linkedin.media-mix']);
  });

  it('TikTok: photos, or one video', () => {
    expect(publishProblems('TikTok', post({ media: [photo(), photo()] }))).toEqual([]);
    expect(rules('TikTok', post({ media: [photo(), clip()] }))).toEqual(['tiktok.media-mix']);
  });

  it('the image + video post of a new user is refused for each of the four, and not for Instagram or Threads', () => {
    const mixed = post({ media: [photo(), clip()] });
    for (const network of ['X', 'Facebook', 'LinkedIn', 'TikTok'])
      expect(rules(network, mixed)).toContain(`${network.toLowerCase()}.media-mix`);
    expect(publishProblems('Instagram', mixed)).toEqual([]);
    expect(publishProblems('Threads', mixed)).toEqual([]);
  });
});

describe('Instagram captions', () => {
  it('take at most 30 hashtags', () => {
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `#tag${i}`).join(' ');
    const media = [photo()];
    expect(publishProblems('Instagram', post({ text: tags(30), media }))).toEqual([]);
    expect(publishProblems('Instagram', post({ text: tags(31), media }))).toEqual([
      {
        rule: 'instagram.hashtags',
        message:
          'Instagram takes at most 30 hashtags in a caption; this one has 31. Remove 1 from the Instagram version of this post.',
      },
    ]);
  });

  it('take at most 20 @mentions', () => {
    const people = (n: number) => Array.from({ length: n }, (_, i) => `@friend${i}`).join(' ');
    const media = [photo()];
    expect(publishProblems('Instagram', post({ text: people(20), media }))).toEqual([]);
    expect(rules('Instagram', post({ text: people(21), media }))).toEqual(['instagram.mentions']);
  });

  it('need an image or a video', () => {
    expect(rules('Instagram', post())).toEqual(['instagram.media-required']);
  });
});

describe('LinkedIn images', () => {
  it('hold fewer than 36,152,320 pixels', () => {
    expect(
      publishProblems('LinkedIn', post({ media: [photo({ width: 6000, height: 6025 })] })),
    ).toEqual([]);
    expect(rules('LinkedIn', post({ media: [photo({ width: 6016, height: 6016 })] }))).toEqual([
      'linkedin.image-pixels',
    ]);
  });
});

describe('files each network takes', () => {
  it('X: GIFs up to 15 MB, other images up to 5 MB', () => {
    const big = 15 * 1024 * 1024;
    const bigGif = photo({ fileName: 'loop.gif', mimeType: 'image/gif', size: big });
    expect(publishProblems('X', post({ media: [bigGif] }))).toEqual([]);
    expect(rules('X', post({ media: [{ ...bigGif, size: big + 1 }] }))).toEqual(['x.file-size']);
    expect(rules('X', post({ media: [photo({ size: 5 * 1024 * 1024 + 1 })] }))).toEqual([
      'x.file-size',
    ]);
  });

  it('LinkedIn: videos of at least 75 KB', () => {
    expect(publishProblems('LinkedIn', post({ media: [clip({ size: 75 * 1024 })] }))).toEqual([]);
    expect(rules('LinkedIn', post({ media: [clip({ size: 75 * 1024 - 1 })] }))).toEqual([
      'linkedin.video-size',
    ]);
  });

  it('Facebook: GIF photos, and MP4 videos only (its upload takes nothing else)', () => {
    expect(publishProblems('Facebook', post({ media: [gif(), photo()] }))).toEqual([]);
    const mov = clip({ fileName: 'clip.mov', mimeType: 'video/quicktime' });
    expect(publishProblems('Facebook', post({ media: [mov] })).map((p) => p.message)).toEqual([
      'clip.mov: File type video/quicktime not allowed. Use: video/mp4',
    ]);
  });

  it('Instagram: an image narrower than 320 px, which Instagram scales up', () => {
    expect(
      publishProblems('Instagram', post({ media: [photo({ width: 200, height: 200 })] })),
    ).toEqual([]);
  });
});

describe('TikTok captions', () => {
  it('hold 2,200 UTF-16 units, under photos as under a video', () => {
    const text = 'a'.repeat(2201);
    expect(rules('TikTok', post({ text, media: [clip()] }))).toEqual(['tiktok.text-length']);
    expect(rules('TikTok', post({ text, media: [photo()] }))).toEqual(['tiktok.text-length']);
    expect(publishProblems('TikTok', post({ text: 'a'.repeat(2200), media: [photo()] }))).toEqual(
      [],
    );
  });
});

describe('every network', () => {
  it('needs something to publish', () => {
    for (const network of ['X', 'Facebook', 'LinkedIn', 'Threads'])
      expect(rules(network, post({ text: '  ' }))).toEqual([`${network.toLowerCase()}.empty`]);
  });

  it('reads the network name in any case, naming it as Herald spells it', () => {
    expect(publishProblems('x', post({ media: [png(), clip()] }))[0]!.message).toMatch(/^X takes/);
  });

  it('checks each file by the network’s numbers when no stored copy is given', () => {
    expect(publishProblems('X', post({ media: [photo({ size: 6 * 1024 * 1024 })] }))).toEqual([
      { rule: 'x.file-size', message: 'photo.jpg: File too large. Max size is 5 MB.' },
    ]);
  });

  it('refuses a thread where the network has none', () => {
    expect(rules('Instagram', post({ media: [photo()], threadParts: ['two'] }))).toEqual([
      'instagram.thread',
    ]);
  });
});
