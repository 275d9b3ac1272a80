import { describe, expect, it } from 'vitest';
import {
  checkMediaCount,
  checkMediaFile,
  checkText,
  constraintsForAccount,
  countText,
  formatFileSize,
  maxFilesFor,
  mediaKindOf,
  type MediaFacts,
} from './media-rules.js';
import { validatePostTargets } from './publish-rules.js';
import type { MediaConstraints } from './platforms.js';

const MB = 1024 * 1024;
const instagram: MediaConstraints = {
  text: { maxLength: 2200, counting: 'codepoints', textOnlyAllowed: false },
  image: {
    allowedMimeTypes: ['image/jpeg'],
    maxFileSize: 8 * MB,
    minDimensions: { width: 320, height: 320 },
  },
  video: {
    allowedMimeTypes: ['video/mp4', 'video/quicktime'],
    maxFileSize: 300 * MB,
    minDuration: 3,
    maxDuration: 900,
  },
};
const reelsOnly: MediaConstraints = {
  reel: { allowedMimeTypes: ['video/mp4'], minDuration: 3, maxDuration: 90, maxCount: 1 },
};
const x: MediaConstraints = {
  text: { maxLength: 280, counting: 'x-weighted', textOnlyAllowed: true },
  maxMediaPerPost: 4,
  image: { allowedMimeTypes: ['image/jpeg', 'image/png'], maxFileSize: 5 * MB, maxCount: 4 },
  video: { allowedMimeTypes: ['video/mp4'], maxCount: 1 },
};

const photo = (over: Partial<MediaFacts> = {}): MediaFacts => ({
  fileName: 'photo.jpg',
  mimeType: 'image/jpeg',
  size: 2 * MB,
  width: 1080,
  height: 1080,
  ...over,
});
const clip = (over: Partial<MediaFacts> = {}): MediaFacts => ({
  fileName: 'clip.mp4',
  mimeType: 'video/mp4',
  size: 20 * MB,
  width: 1080,
  height: 1920,
  durationSec: 30,
  ...over,
});

describe('file kinds and sizes (docs/product.md#media-rules)', () => {
  it('tells images from videos by type first, then by extension', () => {
    expect(mediaKindOf({ fileName: 'a.bin', mimeType: 'image/png' })).toBe('image');
    expect(mediaKindOf({ fileName: 'a.JFIF', mimeType: '' })).toBe('image');
    expect(mediaKindOf({ fileName: 'movie.mkv' })).toBe('video');
    expect(mediaKindOf({ fileName: 'notes.pdf', mimeType: 'application/pdf' })).toBeNull();
    expect(checkMediaFile(photo({ fileName: 'a.pdf', mimeType: 'application/pdf' }), x)).toEqual([
      'Unsupported file type',
    ]);
  });

  it('shows sizes in Bytes, KB, MB and GB with base 1024', () => {
    expect(formatFileSize(512)).toBe('512 Bytes');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(5 * MB)).toBe('5 MB');
    expect(formatFileSize(4 * 1024 * MB)).toBe('4 GB');
  });
});

describe('one file against a platform (every message of docs/product.md#media-rules)', () => {
  it('passes a file that fits', () => {
    expect(checkMediaFile(photo(), instagram)).toEqual([]);
    expect(checkMediaFile(clip(), instagram)).toEqual([]);
  });

  it('names the allowed types', () => {
    expect(checkMediaFile(photo({ mimeType: 'image/png', fileName: 'a.png' }), instagram)).toEqual([
      'File type image/png not allowed. Use: image/jpeg',
    ]);
  });

  it('refuses a file over the size with the size in words', () => {
    expect(checkMediaFile(photo({ size: 9 * MB }), instagram)).toEqual([
      'File too large. Max size is 8 MB.',
    ]);
  });

  it('refuses videos too short or too long', () => {
    expect(checkMediaFile(clip({ durationSec: 2 }), instagram)).toEqual([
      'Video too short. Min duration: 3s.',
    ]);
    expect(checkMediaFile(clip({ durationSec: 901 }), instagram)).toEqual([
      'Video too long. Max duration: 900s.',
    ]);
  });

  it('refuses images below the minimum dimensions', () => {
    expect(checkMediaFile(photo({ width: 300, height: 500 }), instagram)).toEqual([
      'Image too small. Min dimensions: 320x320px.',
    ]);
  });

  it('refuses images whose proportions are outside the allowed width ÷ height', () => {
    const feed: MediaConstraints = {
      image: { allowedMimeTypes: ['image/jpeg'], minAspectRatio: 0.8, maxAspectRatio: 1.91 },
    };
    expect(checkMediaFile(photo({ width: 1080, height: 1350 }), feed)).toEqual([]);
    expect(checkMediaFile(photo({ width: 1080, height: 566 }), feed)).toEqual([]);
    expect(checkMediaFile(photo({ width: 1080, height: 1920 }), feed)).toEqual([
      'Image proportions not allowed: 1080x1920px is 0.56:1; width ÷ height must be between 0.8:1 and 1.91:1. Crop it and upload it again.',
    ]);
    expect(checkMediaFile(photo({ width: 2000, height: 1000 }), feed)).toEqual([
      'Image proportions not allowed: 2000x1000px is 2:1; width ÷ height must be between 0.8:1 and 1.91:1. Crop it and upload it again.',
    ]);
  });

  it('says when a measurement the rule needs could not be read', () => {
    expect(checkMediaFile(clip({ durationSec: null }), instagram)).toEqual([
      'Could not read metadata for file clip.mp4',
    ]);
    expect(checkMediaFile(photo({ width: null, height: null }), instagram)).toEqual([
      'Could not read metadata for file photo.jpg',
    ]);
  });

  it('refuses a class the platform does not take, and classes videos as reels where only reels exist', () => {
    expect(checkMediaFile(photo(), reelsOnly)).toEqual([
      "'image' uploads are not supported for this platform.",
    ]);
    expect(checkMediaFile(clip({ durationSec: 120 }), reelsOnly)).toEqual([
      'Video too long. Max duration: 90s.',
    ]);
  });

  it('uses the default accepted types when a platform has no media rules', () => {
    expect(checkMediaFile(photo({ mimeType: 'image/png', fileName: 'a.png' }), null)).toEqual([]);
    expect(checkMediaFile(photo({ mimeType: 'image/webp', fileName: 'a.webp' }), {})).toEqual([
      'File type image/webp not allowed. Use: image/jpeg, image/png, image/gif, video/mp4, video/quicktime, video/x-matroska, video/webm',
    ]);
  });
});

describe('files in one post', () => {
  it('allows at most 35 files, the most any network takes', () => {
    expect(
      checkMediaCount(
        Array.from({ length: 35 }, () => photo()),
        null,
        'X',
      ),
    ).toEqual([]);
    const more = Array.from({ length: 36 }, () => photo());
    expect(checkMediaCount(more, null, 'X')).toEqual(['You can upload a maximum of 35 files']);
  });

  it('applies per-post and per-type counts of the platform', () => {
    const five = Array.from({ length: 5 }, () => photo());
    expect(checkMediaCount(five, x, 'X')).toEqual([
      'X accepts at most 4 media files in one post.',
      'X accepts at most 4 images in one post.',
    ]);
    expect(checkMediaCount([clip(), clip()], x, 'X')).toEqual([
      'X accepts at most 1 video in one post.',
    ]);
  });

  it('asks for media where text alone is not allowed', () => {
    expect(checkMediaCount([], instagram, 'Instagram')).toEqual([
      'Instagram needs at least one image or video.',
    ]);
    expect(checkMediaCount([], x, 'X')).toEqual([]);
  });
});

describe('files per post (each network’s own count)', () => {
  const tiktokPhotos: MediaConstraints = {
    maxMediaPerPost: 35,
    image: { allowedMimeTypes: ['image/jpeg'], maxCount: 35 },
  };
  const photos = (n: number) =>
    Array.from({ length: n }, (_, i) => photo({ fileName: `${i}.jpg` }));

  it('lets a network that takes more than 10 files have them, and says its own limit past it', () => {
    expect(checkMediaCount(photos(35), tiktokPhotos, 'TikTok')).toEqual([]);
    expect(checkMediaCount(photos(36), tiktokPhotos, 'TikTok')).toEqual([
      'You can upload a maximum of 35 files',
      'TikTok accepts at most 35 media files in one post.',
      'TikTok accepts at most 35 images in one post.',
    ]);
    expect(checkMediaCount(photos(5), x, 'X')).toEqual([
      'X accepts at most 4 media files in one post.',
      'X accepts at most 4 images in one post.',
    ]);
  });

  it('offers the upload room of the networks chosen', () => {
    expect(maxFilesFor([])).toBe(35);
    expect(maxFilesFor([x])).toBe(4);
    expect(maxFilesFor([x, tiktokPhotos])).toBe(35);
    expect(maxFilesFor([x, null])).toBe(35);
  });
});

describe('text the way each network counts it', () => {
  it('counts X weighted: a URL is 23, CJK characters count 2', () => {
    expect(countText(`hi https://example.com/${'a'.repeat(100)}`, 'x-weighted')).toBe(26);
    expect(countText('日本', 'x-weighted')).toBe(4);
  });

  it('counts code points, UTF-16 units and UTF-8 bytes', () => {
    expect(countText('👍🏽ok', 'codepoints')).toBe(4);
    expect(countText('👍🏽ok', 'utf16')).toBe(6);
    expect(countText('é', 'utf8-bytes')).toBe(2);
  });

  it('counts as Threads does: an emoji by its UTF-8 bytes, any other character as one', () => {
    expect(countText('héllo 日本', 'emoji-bytes')).toBe(8);
    expect(countText('👋', 'emoji-bytes')).toBe(4);
    // A whole emoji with its skin tone, a flag, a family joined by ZWJ.
    expect(countText('👍🏽', 'emoji-bytes')).toBe(8);
    expect(countText('🇫🇷', 'emoji-bytes')).toBe(8);
    expect(countText('👩‍👧', 'emoji-bytes')).toBe(11);
    const threads = {
      text: { maxLength: 500, counting: 'emoji-bytes' as const, textOnlyAllowed: true },
    };
    expect(checkText('é'.repeat(500), threads, 'Threads')).toBeNull();
    expect(checkText(`${'a'.repeat(497)}👋`, threads, 'Threads')).toBe(
      'The text is too long for Threads: 501 of 500 characters.',
    );
  });

  it('refuses text over the limit with the count', () => {
    expect(checkText('a'.repeat(280), x, 'X')).toBeNull();
    expect(checkText('a'.repeat(281), x, 'X')).toBe(
      'The text is too long for X: 281 of 280 characters.',
    );
  });

  it("takes an account's own text limit over its network's, counted the network's way", () => {
    const premium = constraintsForAccount(x, 25_000);
    expect(premium?.text).toEqual({ ...x.text, maxLength: 25_000 });
    // The rest of the network's rules stay; the network's own copy is untouched.
    expect(premium?.image).toBe(x.image);
    expect(x.text?.maxLength).toBe(280);
    expect(checkText('a'.repeat(1_000), premium, 'X')).toBeNull();
    expect(checkText('a'.repeat(1_000), constraintsForAccount(x, null), 'X')).toBe(
      'The text is too long for X: 1000 of 280 characters.',
    );
    // Still X's weighted count: 12,501 CJK characters weigh 25,002.
    expect(checkText('日'.repeat(12_501), premium, 'X')).toBe(
      'The text is too long for X: 25002 of 25000 characters.',
    );
    // A network without a text rule has nothing to widen.
    expect(constraintsForAccount({ maxMediaPerPost: 4 }, 25_000)).toEqual({ maxMediaPerPost: 4 });
    expect(constraintsForAccount(null, 25_000)).toBeNull();
  });
});

describe('a whole post', () => {
  it('reports each platform separately, naming the file', () => {
    const errors = validatePostTargets([
      { platformId: 'p1', platformName: 'X', constraints: x, text: 'ok', media: [photo()] },
      {
        platformId: 'p2',
        platformName: 'Instagram',
        constraints: instagram,
        text: 'ok',
        media: [photo({ fileName: 'small.jpg', width: 100, height: 100 })],
      },
    ]);
    expect(errors).toEqual([
      {
        platformId: 'p2',
        platformName: 'Instagram',
        field: 'media',
        message: 'small.jpg: Image too small. Min dimensions: 320x320px.',
        rule: 'instagram.image-dimensions',
      },
    ]);
  });
});
