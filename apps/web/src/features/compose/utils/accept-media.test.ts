import { TOO_MANY_FILES_MESSAGE, type MediaConstraints } from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { acceptMedia } from './accept-media';
import type { MediaItem } from './media-files';

const item = (fileName: string, mimeType: string, size = 1000): MediaItem => ({
  id: fileName,
  file: new File(['x'], fileName, { type: mimeType }),
  facts: { fileName, mimeType, size, width: 1200, height: 1200, durationSec: 10 },
  kind: mimeType.startsWith('video/') ? 'video' : 'image',
  previewUrl: null,
});

const instagram: MediaConstraints = {
  image: { allowedMimeTypes: ['image/jpeg'], maxFileSize: 8 * 1024 * 1024 },
};
const facebook: MediaConstraints = {
  image: { allowedMimeTypes: ['image/jpeg', 'image/png'] },
  video: { allowedMimeTypes: ['video/mp4'], maxCount: 1 },
};

describe('acceptMedia', () => {
  it('refuses a file that any target network refuses, naming the networks', () => {
    const { accepted, rejections } = acceptMedia({
      candidates: [item('a.png', 'image/png'), item('b.jpg', 'image/jpeg')],
      targets: [
        { name: 'Instagram', constraints: instagram, current: [] },
        { name: 'Facebook', constraints: facebook, current: [] },
      ],
      uploadedCount: 0,
    });
    expect(accepted.map((i) => i.id)).toEqual(['b.jpg']);
    expect(rejections).toEqual([
      {
        message: 'File type image/png not allowed. Use: image/jpeg',
        fileNames: ['a.png'],
        platforms: ['Instagram'],
      },
    ]);
  });

  it('refuses a file that breaks a count rule, keeping the ones before it', () => {
    const { accepted, rejections } = acceptMedia({
      candidates: [item('one.mp4', 'video/mp4'), item('two.mp4', 'video/mp4')],
      targets: [{ name: 'Facebook', constraints: facebook, current: [] }],
      uploadedCount: 0,
    });
    expect(accepted.map((i) => i.id)).toEqual(['one.mp4']);
    expect(rejections[0]?.message).toBe('Facebook accepts at most 1 video in one post.');
  });

  it('stops at 35 files per post (the most any network takes) with one message for all the extra files', () => {
    const { accepted, rejections } = acceptMedia({
      candidates: [
        item('34.jpg', 'image/jpeg'),
        item('35.jpg', 'image/jpeg'),
        item('36.jpg', 'image/jpeg'),
        item('37.jpg', 'image/jpeg'),
      ],
      targets: [{ name: '', constraints: null, current: [] }],
      uploadedCount: 33,
    });
    expect(accepted.map((i) => i.id)).toEqual(['34.jpg', '35.jpg']);
    expect(rejections).toEqual([
      { message: TOO_MANY_FILES_MESSAGE, fileNames: ['36.jpg', '37.jpg'], platforms: [] },
    ]);
  });
});
